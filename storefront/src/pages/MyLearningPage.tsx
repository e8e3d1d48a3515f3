import { listMyCourses } from '../api/learning';
import { listMyWorkshops } from '../api/workshops';
import { MyWorkshops } from '../learning/MyWorkshops';
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
  const workshops = useAccountAsync(listMyWorkshops);
  const hasWorkshops = workshops.status === 'ready' && workshops.data.length > 0;
  useDocumentTitle('My learning');

  return (
    <section>
      <h1>My learning</h1>
      <LoadStatus state={courses} retry={courses.retry} what="your courses" />
      <LoadStatus state={workshops} retry={workshops.retry} what="your workshops" />
      {hasWorkshops && <MyWorkshops workshops={workshops.data} />}
      {courses.status === 'ready' && courses.data.length === 0 && workshops.status !== 'loading' && !hasWorkshops && (
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
