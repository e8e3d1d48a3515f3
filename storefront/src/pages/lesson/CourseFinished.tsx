import { Link } from 'wouter';
import { certificatePath } from '../../api/certificates';
import { coursePath, type ProgressAnswer } from '../../api/learning';

/**
 * The moment a learner completes the last lesson they had left: the course is theirs, done. Shown inside the lesson
 * page's status region (announced), with where to go next.
 */
export function CourseFinished({
  course,
  certificate,
}: {
  course: ProgressAnswer['course'];
  /** Issued to learners who hold the course (not for free lessons alone). */
  certificate: ProgressAnswer['certificate'];
}) {
  const { total } = course.progress;
  return (
    <section className="course-finished" aria-labelledby="course-finished-heading">
      <svg viewBox="0 0 24 24" width="32" height="32" aria-hidden="true" focusable="false">
        <circle cx="12" cy="12" r="11" fill="currentColor" />
        <path
          d="M7 12.5l3.2 3.2L17 9"
          fill="none"
          stroke="var(--surface)"
          strokeWidth="2.2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <div>
        <h2 id="course-finished-heading">You finished {course.title}</h2>
        <p>
          All {total} {total === 1 ? 'lesson' : 'lessons'} done. Well done!{' '}
          {certificate
            ? 'Your certificate of completion is ready: download it, or share its link.'
            : 'Pick what to study next in My learning, or look back over this course from its page.'}
        </p>
        <p className="actions">
          {certificate && (
            <Link className="button-link" to={certificatePath(certificate)}>
              View your certificate
            </Link>
          )}
          <Link className={certificate ? 'button-link button-link-quiet' : 'button-link'} to="/learning">
            Back to My learning
          </Link>
          <Link className="button-link button-link-quiet" to={coursePath(course)}>
            Course page
          </Link>
        </p>
      </div>
    </section>
  );
}
