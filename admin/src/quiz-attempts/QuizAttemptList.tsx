import QuizOutlinedIcon from '@mui/icons-material/QuizOutlined';
import { BooleanField } from 'react-admin';
import { date, numeric } from '../common/columns';
import { LearningList, contentFilter, contentRef, userFilter, userRef } from '../content-resources/shared';

const filters = [userFilter('userId'), contentFilter('lessonId', { filter: { type: 'lesson' } })];

export const passed = <BooleanField key="passed" source="passed" sortable={false} />;

/** Every attempt at a quiz lesson, newest first; the list exports as CSV like every other. */
export function QuizAttemptList() {
  return (
    <LearningList filters={filters} icon={QuizOutlinedIcon} sort={{ field: 'createdAt', order: 'DESC' }}>
      {userRef('userId')}
      {contentRef('lessonId')}
      {numeric('number', { sortable: false })}
      {numeric('score', { sortable: false })}
      {passed}
      {date('createdAt')}
    </LearningList>
  );
}
