import TaskAltOutlinedIcon from '@mui/icons-material/TaskAltOutlined';
import { Datagrid, DateField, DateInput, List, SearchInput } from 'react-admin';
import {
  ContentRefField,
  ContentReferenceInput,
  EmptyState,
  NoMatch,
  UserRefField,
  UserReferenceInput,
  LearningListActions,
} from '../content-resources/shared';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search lesson slug" />,
  <UserReferenceInput key="userId" source="userId" label="Learner" alwaysOn />,
  <ContentReferenceInput key="lessonId" source="lessonId" label="Lesson" filter={{ type: 'lesson' }} alwaysOn />,
  <ContentReferenceInput key="moduleId" source="moduleId" label="Module" filter={{ type: 'module' }} />,
  <DateInput key="completedAt_gte" source="completedAt_gte" label="Completed since" />,
];

export function LessonProgressList() {
  return (
    <List
      actions={<LearningListActions />}
      filters={filters}
      sort={{ field: 'updatedAt', order: 'DESC' }}
      empty={
        <EmptyState icon={TaskAltOutlinedIcon} title="No progress yet">
          A row appears when a learner completes a lesson.
        </EmptyState>
      }
    >
      <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoMatch>No progress matches these filters.</NoMatch>}>
        <UserRefField source="userId" sortable={false} />
        <ContentRefField source="lessonId" sortable={false} />
        <DateField source="completedAt" showTime emptyText="Not completed" />
        <DateField source="updatedAt" showTime />
      </Datagrid>
    </List>
  );
}
