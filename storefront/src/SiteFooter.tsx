import { Link } from 'wouter';
import { useSchool } from './school';

/** Where the footer's links lead: the school's legal texts and how to reach it. */
export const SCHOOL_PAGES = { terms: '/terms', privacy: '/privacy', contact: '/contact' } as const;

/**
 * Every page's footer: who runs the site (© the year, the school's name), its terms, privacy notice and contact
 * page, and its support email when it has one. The year is UTC's, as the server wrote it, so hydrating matches.
 */
export function SiteFooter() {
  const { name, supportEmail } = useSchool();
  return (
    <footer className="site-footer">
      <div className="container site-footer-inner">
        <p className="site-footer-owner">
          © {new Date().getUTCFullYear()} {name}
        </p>
        <nav aria-label="About the school" className="site-footer-nav">
          <Link to={SCHOOL_PAGES.terms}>Terms</Link>
          <Link to={SCHOOL_PAGES.privacy}>Privacy</Link>
          <Link to={SCHOOL_PAGES.contact}>Contact</Link>
        </nav>
        {supportEmail && (
          <p className="site-footer-support">
            Support: <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
          </p>
        )}
      </div>
    </footer>
  );
}
