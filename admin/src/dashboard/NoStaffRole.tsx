import { Alert, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

/** For an account without a staff role: where a contributor's work is, or that there is nothing here. */
export function NoStaffRole({ contributor }: { contributor: boolean }) {
  const translate = useTranslate();
  return contributor ? (
    <Typography>{translate('finance.dashboard.contributor')}</Typography>
  ) : (
    <Alert severity="warning">{translate('finance.dashboard.noStaffRole')}</Alert>
  );
}
