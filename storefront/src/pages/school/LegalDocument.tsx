import { Link } from 'wouter';
import { getSchool, type StoreSchool } from '../../api/school';
import { useHead } from '../../head';
import { LoadStatus } from '../../LoadStatus';
import { useSchool } from '../../school';
import { SCHOOL_PAGES } from '../../SiteFooter';
import { useAsync } from '../../useAsync';
import { SchoolIdentity } from './SchoolIdentity';

interface Props {
  title: string;
  path: string;
  /** The sentence search results show. */
  description: string;
  /** The admin's text (sanitised by the API as lesson bodies are). */
  text: (school: StoreSchool) => string;
  /** What the text is called in a sentence: "terms", "privacy notice". */
  what: string;
  /** The heading over who the school is: the seller, or who keeps the learner's data. */
  identityHeading: string;
}

/**
 * A legal text of the school's (its terms, its privacy notice) as its administrator wrote it, then who the school is.
 * A text not written yet says so rather than showing an empty page.
 */
export function LegalDocument({ title, path, description, text, what, identityHeading }: Props) {
  const site = useSchool();
  const school = useAsync(getSchool);
  useHead({ title, description, path });
  return (
    <article className="legal-page">
      <h1>{title}</h1>
      <LoadStatus state={school} retry={school.retry} what={`the ${what}`} />
      {school.status === 'ready' &&
        (text(school.data) ? (
          <div className="lesson-body legal-text" dangerouslySetInnerHTML={{ __html: text(school.data) }} />
        ) : (
          <p className="notice">
            {site.name} has not published its {what} yet. Questions before you buy? See the{' '}
            <Link to={SCHOOL_PAGES.contact}>contact page</Link>.
          </p>
        ))}
      <section aria-labelledby="legal-identity">
        <h2 id="legal-identity">{identityHeading}</h2>
        <SchoolIdentity school={site} />
      </section>
    </article>
  );
}
