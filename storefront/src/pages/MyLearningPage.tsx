import { listMyCourses } from '../api/learning';
import { MyCourseList } from '../learning/MyCourseList';
import { LoadStatus } from '../LoadStatus';
import { RequireSignIn } from '../RequireSignIn';
import { Link } from 'wouter';
import { useDocumentTitle } from '../useDocumentTitle';
import { useAccountAsync } from '../useAccountAsync';

/** /learning: every course the learner owns or studied, most recently studied first. */
export function MyLearningPage() {
  return <RequireSignIn>{() => <MyLearning />}</RequireSignIn>;
}

function MyLearning() {
  const courses = useAccountAsync(listMyCourses);
  useDocumentTitle('My learning');

  return (
    <section>
      <h1>My learning</h1>
      <LoadStatus state={courses} retry={courses.retry} what="your courses" />
      {courses.status === 'ready' && courses.data.length === 0 && (
        <p className="empty">
          You have no courses yet. <Link to="/">Browse the courses</Link>
        </p>
      )}
      {courses.status === 'ready' && courses.data.length > 0 && (
        <MyCourseList courses={courses.data} headingLevel={2} />
      )}
    </section>
  );
}
