import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { Button } from '@mui/material';
import { TextField, TopToolbar, useRecordContext, useTranslate } from 'react-admin';
import { STAMPS, date, pick, text } from '../common/columns';
import { RecordShow } from '../common/RecordShow';
import { contentRef, userRef } from '../content-resources/shared';
import { CorrectCertificateNameButton } from './CorrectName';
import { CertificateStatusField, RevokeCertificateButton } from './Revoke';
import { verificationPath, type Certificate } from './types';

/** The public page as anyone sees it (a new tab: the console stays where it is). */
function VerificationPageButton() {
  const certificate = useRecordContext<Certificate>();
  const translate = useTranslate();
  if (!certificate) return null;
  return (
    <Button
      size="small"
      startIcon={<OpenInNewIcon />}
      href={verificationPath(certificate)}
      target="_blank"
      rel="noopener"
    >
      {translate('resources.certificates.openPage')}
    </Button>
  );
}

function CertificateActions() {
  return (
    <TopToolbar>
      <VerificationPageButton />
      <CorrectCertificateNameButton />
      <RevokeCertificateButton />
    </TopToolbar>
  );
}

function CertificateTitle() {
  const certificate = useRecordContext<Certificate>();
  const translate = useTranslate();
  return (
    <>
      {certificate
        ? translate('resources.certificates.title', { name: certificate.learnerName, course: certificate.courseTitle })
        : translate('resources.certificates.name', { smart_count: 1 })}
    </>
  );
}

export function CertificateShow() {
  return (
    <RecordShow actions={<CertificateActions />} title={<CertificateTitle />}>
      <TextField source="id" />
      <CertificateStatusField label="resources.certificates.fields.status" />
      {userRef('userId')}
      {text('learnerEmail', { emptyText: '—' })}
      {text('learnerName')}
      {date('nameCorrectedAt', { emptyText: '—' })}
      {userRef('nameCorrectedById')}
      {date('holderCorrectedAt', { emptyText: '—' })}
      {contentRef('courseId')}
      {text('courseTitle')}
      {date('issuedAt')}
      {date('revokedAt', { emptyText: '—' })}
      {text('revokedReason', { emptyText: '—' })}
      {userRef('revokedById')}
      {pick(STAMPS, ['createdAt', 'updatedAt'])}
    </RecordShow>
  );
}
