import { useSchool } from '../../school';
import { SCHOOL_PAGES } from '../../SiteFooter';
import { LegalDocument } from './LegalDocument';

/** /terms: the terms on which the school sells. */
export function TermsPage() {
  const { name } = useSchool();
  return (
    <LegalDocument
      title="Terms"
      path={SCHOOL_PAGES.terms}
      description={`The terms on which ${name} sells its courses.`}
      text={(school) => school.termsHtml}
      what="terms"
      identityHeading="The seller"
    />
  );
}
