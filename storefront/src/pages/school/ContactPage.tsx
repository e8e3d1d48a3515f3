import { Link } from 'wouter';
import { useHead } from '../../head';
import { useSchool } from '../../school';
import { SCHOOL_PAGES } from '../../SiteFooter';
import { SchoolIdentity } from './SchoolIdentity';

/** /contact: who the school is and how to reach it (its legal name, postal address and support email). */
export function ContactPage() {
  const school = useSchool();
  useHead({
    title: 'Contact',
    description: `How to reach ${school.name}: its address and support email.`,
    path: SCHOOL_PAGES.contact,
  });
  return (
    <article className="legal-page">
      <h1>Contact</h1>
      {school.supportEmail ? (
        <p>
          Write to <a href={`mailto:${school.supportEmail}`}>{school.supportEmail}</a> with any question about a course,
          a purchase or your account.
        </p>
      ) : (
        <p className="notice">{school.name} has not given a support email yet. Its postal address is below.</p>
      )}
      <SchoolIdentity school={school} />
      <p>
        See also the <Link to={SCHOOL_PAGES.terms}>terms</Link> and the{' '}
        <Link to={SCHOOL_PAGES.privacy}>privacy notice</Link>.
      </p>
    </article>
  );
}
