import { useSchool } from '../../school';
import { SCHOOL_PAGES } from '../../SiteFooter';
import { LegalDocument } from './LegalDocument';

/** /privacy: what the school keeps about learners and buyers, and why. */
export function PrivacyPage() {
  const { name } = useSchool();
  return (
    <LegalDocument
      title="Privacy notice"
      path={SCHOOL_PAGES.privacy}
      description={`What ${name} keeps about you, why, and your rights.`}
      text={(school) => school.privacyHtml}
      what="privacy notice"
      identityHeading="Who keeps your data"
    />
  );
}
