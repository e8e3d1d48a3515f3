import { listMyCourses } from '../api/learning';
import { MyCourseList } from '../learning/MyCourseList';
import { Link } from 'wouter';
import { useAsync } from '../useAsync';

const SHOWN = 3;

/** On the home page of a signed-in learner: the courses studied most recently, each with where to continue. */
export function ContinueLearning({ userId }: { userId: string }) {
  const courses = useAsync(listMyCourses, [userId]);
  // The catalog below is the page's main content: while loading, or when this fails, it simply shows alone.
  if (courses.status !== 'ready' || courses.data.length === 0) return null;
  return (
    <section aria-labelledby="continue-heading" className="continue-learning">
      <h2 id="continue-heading">Continue learning</h2>
      <MyCourseList courses={courses.data.slice(0, SHOWN)} headingLevel={3} />
      {courses.data.length > SHOWN && (
        <p>
          <Link to="/learning">All my courses ({courses.data.length})</Link>
        </p>
      )}
    </section>
  );
}
