import TuneOutlinedIcon from '@mui/icons-material/TuneOutlined';
import { date, text } from '../common/columns';
import { choiceFilter } from '../common/filters';
import { LearningList, contentFilter, contentRef, userFilter, userRef } from '../content-resources/shared';
import { PREF_TYPE_CHOICES } from './choices';

const filters = [
  userFilter('userId'),
  choiceFilter('type', PREF_TYPE_CHOICES),
  contentFilter('resourceId', { alwaysOn: false }),
];

export function UserPrefsList() {
  return (
    <LearningList filters={filters} icon={TuneOutlinedIcon} sort={{ field: 'updatedAt', order: 'DESC' }}>
      {userRef('userId')}
      {text('type')}
      {contentRef('resourceId')}
      {date('updatedAt')}
    </LearningList>
  );
}
