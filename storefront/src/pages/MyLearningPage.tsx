import { useEffect } from 'react';
import { isApiError } from '../api/client';
import { listMyCourses } from '../api/learning';
import { MyCourseList } from '../learning/MyCourseList';
import { LoadStatus } from '../LoadStatus';
import { RequireSignIn } from '../RequireSignIn';
import { Link } from 'wouter';
import { useSession } from '../session';
import { useAsync } from '../useAsync';
import { useDocumentTitle } from '../useDocumentTitle';

/** /learning: every course the learner owns or studied, most recently studied first. */
export function MyLearningPage() {
  return <RequireSignIn>{() => <MyLearning />}</RequireSignIn>;
}

function MyLearning() {
  const courses = useAsync(listMyCourses);
  const { refresh } = useSession();
  const failure = courses.status === 'error' ? courses.error : null;
  useDocumentTitle('My learning');

  useEffect(() => {
    if (isApiError(failure, 'unauthenticated')) refresh();
  }, [failure, refresh]);

  return (
    <section>
      <h1>My learning</h1>
      <LoadStatus state={courses} retry={courses.retry} what="your courses" />
      {courses.status === 'ready' && courses.data.length === 0 && (
        <p className="empty">
          You have no courses yet. <Link to="/">Browse the courses</Link>
        </p>
      )}
      {courses.status === 'ready' && courses.data.length > 0 && <MyCourseList courses={courses.data} headingLevel={2} />}
    </section>
  );
}
