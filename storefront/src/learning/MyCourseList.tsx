import type { MyCertificate } from '../api/certificates';
import { coursePath, lessonPath, type MyCourse } from '../api/learning';
import { formatDate } from '../format';
import { Link } from 'wouter';
import { CertificateLinks } from './CertificateLinks';
import { isComplete } from './outlineProgress';
import { ProgressBar } from './ProgressBar';

/** The learner's courses as cards: progress, the lesson to continue with, and the certificate once finished. */
export function MyCourseList({
  courses,
  headingLevel,
  certificates,
}: {
  courses: MyCourse[];
  headingLevel: 2 | 3;
  /** The learner's certificates by course id, where the page has them. */
  certificates?: ReadonlyMap<string, MyCertificate>;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ul className="my-courses">
      {courses.map(({ course, progress, continue: next, lastStudiedAt }) => {
        const nextId = `continue-${course.id}`;
        return (
          <li key={course.id} className="my-course">
            <Heading>
              <Link to={coursePath(course)}>{course.title}</Link>
            </Heading>
            {isComplete(progress) && <p className="badge badge-complete">Course complete</p>}
            {certificates?.has(course.id) && <CertificateLinks certificate={certificates.get(course.id)!} />}
            <ProgressBar progress={progress} label={`Progress in ${course.title}`} />
            {lastStudiedAt && (
              <p className="hint">
                Last studied <time dateTime={lastStudiedAt}>{formatDate(lastStudiedAt)}</time>
              </p>
            )}
            {next ? (
              <p className="continue">
                <Link className="button-link button-continue" to={lessonPath(course, next)} aria-describedby={nextId}>
                  {progress.completed > 0 ? 'Continue where you left off' : 'Start the course'}
                </Link>{' '}
                <span id={nextId} className="hint">
                  {course.title}: {next.title}
                </span>
              </p>
            ) : (
              <p className="hint">
                Every lesson done. <Link to={coursePath(course)}>Review the course</Link>
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
