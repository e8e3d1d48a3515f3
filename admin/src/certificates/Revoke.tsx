import { useState } from 'react';
import { Box, Button, Chip, TextField as MuiTextField, Typography } from '@mui/material';
import BlockIcon from '@mui/icons-material/Block';
import { usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { ConfirmActionDialog } from '../common/ActionDialog';
import { useConsoleAction } from '../common/useConsoleAction';
import { canWrite } from '../permissions';
import type { Certificate } from './types';
import { STAFF_REASON_MAX } from '../../../api/src/shared/staff-reason';

const words = (name: string) => `resources.certificates.revoke.${name}`;

function RevokeDialog({ certificate, onClose }: { certificate: Certificate; onClose(): void }) {
  const translate = useTranslate();
  const [reason, setReason] = useState('');
  const revoke = useConsoleAction(
    (dataProvider) => dataProvider.revokeCertificate(certificate.id, reason.trim()),
    () => words('done'),
  );
  return (
    <ConfirmActionDialog
      title={words('title')}
      question={translate(words('question'), { name: certificate.learnerName, course: certificate.courseTitle })}
      details={words('details')}
      busyLabel={words('busy')}
      confirmLabel={words('confirm')}
      failure={words('failure')}
      mutation={revoke}
      onClose={onClose}
    >
      <MuiTextField
        label={translate(words('reason'))}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        required
        multiline
        minRows={2}
        maxRows={6}
        fullWidth
        margin="normal"
        helperText={translate(words('reasonHelp'), { length: reason.length, max: STAFF_REASON_MAX })}
        slotProps={{ htmlInput: { maxLength: STAFF_REASON_MAX } }}
      />
    </ConfirmActionDialog>
  );
}

/**
 * Revoke (a certificate in force), for support and admins: for good, with the reason its public page gives. Inside a
 * list row the click stays with the button (the row would open the certificate).
 */
export function RevokeCertificateButton(_props: { label?: string }) {
  const certificate = useRecordContext<Certificate>();
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!certificate || certificate.revokedAt || !canWrite(permissions, 'certificates')) return null;
  return (
    <>
      <Button
        size="small"
        color="error"
        startIcon={<BlockIcon />}
        sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        onClick={(event) => {
          event.stopPropagation();
          setOpen(true);
        }}
      >
        {translate(words('button'))}
      </Button>
      {open ? <RevokeDialog certificate={certificate} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/** "Issued", or "Revoked" with the reason beside it. */
export function CertificateStatusField(_props: { label?: string; sortable?: boolean; sortBy?: string }) {
  const certificate = useRecordContext<Certificate>();
  const translate = useTranslate();
  if (!certificate) return null;
  if (!certificate.revokedAt)
    return <Chip size="small" color="success" label={translate('resources.certificates.status.issued')} />;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <Chip size="small" color="error" label={translate('resources.certificates.status.revoked')} />
      <Typography variant="body2" color="text.secondary" component="span">
        {certificate.revokedReason}
      </Typography>
    </Box>
  );
}
