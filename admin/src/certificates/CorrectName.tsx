import { useState } from 'react';
import { Button, TextField as MuiTextField } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import { usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { ConfirmActionDialog } from '../common/ActionDialog';
import { useConsoleAction } from '../common/useConsoleAction';
import { canWrite } from '../permissions';
import type { Certificate } from './types';
import { DISPLAY_NAME_LENGTH } from '../../../api/src/shared/display-name';

const words = (name: string) => `resources.certificates.correctName.${name}`;

function CorrectNameDialog({ certificate, onClose }: { certificate: Certificate; onClose(): void }) {
  const translate = useTranslate();
  const [name, setName] = useState(certificate.learnerName);
  const correct = useConsoleAction(
    (dataProvider) => dataProvider.correctCertificateName(certificate.id, name.trim()),
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
      mutation={correct}
      onClose={onClose}
    >
      <MuiTextField
        label={translate(words('name'))}
        value={name}
        onChange={(event) => setName(event.target.value)}
        required
        fullWidth
        margin="normal"
        helperText={translate(words('nameHelp'), { min: DISPLAY_NAME_LENGTH.min, max: DISPLAY_NAME_LENGTH.max })}
        slotProps={{ htmlInput: { maxLength: DISPLAY_NAME_LENGTH.max + 20, dir: 'auto' } }}
      />
    </ConfirmActionDialog>
  );
}

/**
 * Correct the name on a certificate in force, for support and admins (a learner who used their own correction, or
 * asks support to): the public page says it was corrected and when; audited.
 */
export function CorrectCertificateNameButton(_props: { label?: string }) {
  const certificate = useRecordContext<Certificate>();
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!certificate || certificate.revokedAt || !canWrite(permissions, 'certificates')) return null;
  return (
    <>
      <Button
        size="small"
        startIcon={<EditIcon />}
        sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        onClick={(event) => {
          event.stopPropagation();
          setOpen(true);
        }}
      >
        {translate(words('button'))}
      </Button>
      {open ? <CorrectNameDialog certificate={certificate} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
