import type { SiteSchool } from '../../api/school';

/**
 * Who the school is, as consumer law asks a trader to say: its legal name and postal address (its name when it has
 * given no legal name), and its support email when it has one.
 */
export function SchoolIdentity({ school }: { school: SiteSchool }) {
  const lines = school.address ? school.address.split('\n') : [];
  return (
    <address className="school-identity">
      <strong>{school.legalName || school.name}</strong>
      {lines.map((line, i) => (
        <span key={i}>{line}</span>
      ))}
      {school.supportEmail && (
        <span>
          Email: <a href={`mailto:${school.supportEmail}`}>{school.supportEmail}</a>
        </span>
      )}
    </address>
  );
}
