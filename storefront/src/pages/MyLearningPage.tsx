import { useMemo } from 'react';
import { certificatePath, listMyCertificates, type MyCertificate } from '../api/certificates';
import { listMyCourses } from '../api/learning';
import { listMyWorkshops } from '../api/workshops';
import { CertificateLinks } from '../learning/CertificateLinks';
import { MyWorkshops } from '../learning/MyWorkshops';
import { MyCourseList } from '../learning/MyCourseList';
import { LoadStatus } from '../LoadStatus';
import { RequireSignIn } from '../RequireSignIn';
import { Link } from 'wouter';
import { useSession } from '../session';
import { useDocumentTitle } from '../useDocumentTitle';
import { useAccountAsync } from '../useAccountAsync';

/** /learning: every course the learner owns or studied, most recently studied first, with its certificate. */
export function MyLearningPage() {
  return <RequireSignIn>{() => <MyLearning />}</RequireSignIn>;
}

function MyLearning() {
  const courses = useAccountAsync(listMyCourses);
  const workshops = useAccountAsync(listMyWorkshops);
  const certificates = useAccountAsync(listMyCertificates);
  const hasWorkshops = workshops.status === 'ready' && workshops.data.length > 0;
  const earned = useMemo(() => (certificates.status === 'ready' ? certificates.data : []), [certificates]);
  const byCourse = useMemo(
    () => new Map(earned.flatMap((c) => (c.courseId ? [[c.courseId, c] as const] : []))),
    [earned],
  );
  // Certificates of courses no longer listed (refunded, or the course was removed) still belong to the learner.
  const listed = new Set(courses.status === 'ready' ? courses.data.map((c) => c.course.id) : []);
  const others = courses.status === 'ready' ? earned.filter((c) => !c.courseId || !listed.has(c.courseId)) : [];
  useDocumentTitle('My learning');

  return (
    <section>
      <h1>My learning</h1>
      <LoadStatus state={courses} retry={courses.retry} what="your courses" />
      <LoadStatus state={workshops} retry={workshops.retry} what="your workshops" />
      {certificates.status === 'error' && (
        <LoadStatus state={certificates} retry={certificates.retry} what="your certificates" />
      )}
      <NameOnCertificates certificates={earned} />
      {hasWorkshops && <MyWorkshops workshops={workshops.data} />}
      {courses.status === 'ready' && courses.data.length === 0 && workshops.status !== 'loading' && !hasWorkshops && (
        <p className="empty">
          You have no courses yet. <Link to="/">Browse the courses</Link>
        </p>
      )}
      {courses.status === 'ready' && courses.data.length > 0 && (
        <MyCourseList courses={courses.data} headingLevel={2} certificates={byCourse} />
      )}
      {others.length > 0 && (
        <section aria-labelledby="other-certificates-heading" className="other-certificates">
          <h2 id="other-certificates-heading">Your other certificates</h2>
          <ul className="my-courses">
            {others.map((certificate) => (
              <li key={certificate.id} className="my-course">
                <h3>{certificate.courseTitle}</h3>
                <CertificateLinks certificate={certificate} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}

/**
 * A learner without a display name has certificates in their email's name (the part before the @): they are pointed to
 * the certificate's page to correct it (once), and to Settings for the certificates to come.
 */
function NameOnCertificates({ certificates }: { certificates: MyCertificate[] }) {
  const { state } = useSession();
  const correctable = certificates.find((c) => c.canCorrectName);
  if (state.status !== 'signed-in' || state.user.name || !correctable) return null;
  return (
    <p className="notice certificate-name-notice">
      Your certificate for {correctable.courseTitle} shows the name “{correctable.learnerName}”, taken from your email.{' '}
      <Link to={certificatePath(correctable)}>Correct it on the certificate’s page</Link>, and{' '}
      <Link to="/settings">set your name in Settings</Link> for the certificates to come.
    </p>
  );
}
