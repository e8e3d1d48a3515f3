import { date, numeric, text } from '../common/columns';
import { RecordShow } from '../common/RecordShow';
import { contentRef, userRef } from '../content-resources/shared';
import { passed } from './QuizAttemptList';

export function QuizAttemptShow() {
  return (
    <RecordShow>
      {[
        userRef('userId'),
        contentRef('lessonId'),
        numeric('number'),
        numeric('score'),
        numeric('passPercent'),
        passed,
        numeric('correct'),
        numeric('total'),
        date('createdAt'),
        text('id'),
      ]}
    </RecordShow>
  );
}
