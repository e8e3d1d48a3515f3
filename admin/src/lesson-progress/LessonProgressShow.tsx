import { STAMPS, text } from '../common/columns';
import { RecordShow } from '../common/RecordShow';
import { contentRef, userRef } from '../content-resources/shared';
import { completedAt } from './LessonProgressList';

export function LessonProgressShow() {
  return (
    <RecordShow>
      {[
        userRef('userId'),
        contentRef('lessonId'),
        contentRef('sectionId'),
        contentRef('moduleId'),
        text('lessonSlug', { emptyText: '—' }),
        text('lessonVersion', { emptyText: '—' }),
        completedAt,
        ...STAMPS,
      ]}
    </RecordShow>
  );
}
