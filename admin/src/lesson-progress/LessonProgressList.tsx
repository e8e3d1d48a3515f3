import TaskAltOutlinedIcon from '@mui/icons-material/TaskAltOutlined';
import { DateInput } from 'react-admin';
import { date } from '../common/columns';
import { searchFilter } from '../common/filters';
import { RecordList } from '../common/RecordList';
import {
  ContentReferenceInput,
  UserReferenceInput,
  LearningListActions,
  contentRef,
  userRef,
} from '../content-resources/shared';

const filters = [
  searchFilter('resources.lesson-progress.search'),
  <UserReferenceInput key="userId" source="userId" label="resources.lesson-progress.fields.userId" alwaysOn />,
  <ContentReferenceInput
    key="lessonId"
    source="lessonId"
    label="resources.lesson-progress.fields.lessonId"
    filter={{ type: 'lesson' }}
    alwaysOn
  />,
  <ContentReferenceInput
    key="moduleId"
    source="moduleId"
    label="resources.lesson-progress.fields.moduleId"
    filter={{ type: 'module' }}
  />,
  <DateInput key="completedAt_gte" source="completedAt_gte" label="resources.lesson-progress.fields.completedAt_gte" />,
];

export const completedAt = date('completedAt', { emptyText: 'resources.lesson-progress.notCompleted' });

export function LessonProgressList() {
  return (
    <RecordList
      actions={<LearningListActions />}
      filters={filters}
      icon={TaskAltOutlinedIcon}
      sort={{ field: 'updatedAt', order: 'DESC' }}
    >
      {userRef('userId')}
      {contentRef('lessonId')}
      {completedAt}
      {date('updatedAt')}
    </RecordList>
  );
}
