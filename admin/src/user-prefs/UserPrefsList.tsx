import TuneOutlinedIcon from '@mui/icons-material/TuneOutlined';
import { date, text } from '../common/columns';
import { choiceFilter } from '../common/filters';
import { RecordList } from '../common/RecordList';
import {
  ContentReferenceInput,
  UserReferenceInput,
  LearningListActions,
  contentRef,
  userRef,
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
      {userRef('userId')}
      {text('type')}
      {contentRef('resourceId')}
      {date('updatedAt')}
    </RecordList>
  );
}
