import TaskAltOutlinedIcon from '@mui/icons-material/TaskAltOutlined';
import { DateInput } from 'react-admin';
import { date } from '../common/columns';
import { searchFilter } from '../common/filters';
import { LearningList, contentFilter, contentRef, userFilter, userRef } from '../content-resources/shared';

const filters = [
  searchFilter('resources.lesson-progress.search'),
  userFilter('userId'),
  contentFilter('lessonId', { filter: { type: 'lesson' } }),
  contentFilter('moduleId', { alwaysOn: false, filter: { type: 'module' } }),
  <DateInput key="completedAt_gte" source="completedAt_gte" label="resources.lesson-progress.fields.completedAt_gte" />,
];

export const completedAt = date('completedAt', { emptyText: 'resources.lesson-progress.notCompleted' });

export function LessonProgressList() {
  return (
    <LearningList filters={filters} icon={TaskAltOutlinedIcon} sort={{ field: 'updatedAt', order: 'DESC' }}>
      {userRef('userId')}
      {contentRef('lessonId')}
      {completedAt}
      {date('updatedAt')}
    </LearningList>
  );
}
