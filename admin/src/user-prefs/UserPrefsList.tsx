import TuneOutlinedIcon from '@mui/icons-material/TuneOutlined';
import { date, text } from '../common/columns';
import { choiceFilter } from '../common/filters';
import { RecordList } from '../common/RecordList';
import {
  ContentRefField,
  ContentReferenceInput,
  UserRefField,
  UserReferenceInput,
  LearningListActions,
} from '../content-resources/shared';
import { PREF_TYPE_CHOICES } from './choices';

const filters = [
  <UserReferenceInput key="userId" source="userId" label="resources.user-prefs.fields.userId" alwaysOn />,
  choiceFilter('type', PREF_TYPE_CHOICES),
  <ContentReferenceInput key="resourceId" source="resourceId" label="resources.user-prefs.fields.resourceId" />,
];

export function UserPrefsList() {
  return (
    <RecordList
      actions={<LearningListActions />}
      filters={filters}
      icon={TuneOutlinedIcon}
      sort={{ field: 'updatedAt', order: 'DESC' }}
    >
      <UserRefField source="userId" sortable={false} />
      {text('type')}
      <ContentRefField source="resourceId" sortable={false} />
      {date('updatedAt')}
    </RecordList>
  );
}
