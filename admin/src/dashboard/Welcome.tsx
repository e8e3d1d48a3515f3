import { Typography } from '@mui/material';
import { useGetIdentity, useTranslate } from 'react-admin';
import { roleLabel } from '../users/choices';

/** Who is signed in, and with which roles. */
export function Welcome({ roles }: { roles: string[] }) {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  return (
    <>
      <Typography variant="h5" component="h1">
        {identity?.fullName
          ? translate('finance.dashboard.welcomeName', { name: identity.fullName })
          : translate('finance.dashboard.welcome')}
      </Typography>
      <Typography color="text.secondary">
        {translate('finance.dashboard.roles', {
          roles: roles.length ? roles.map(roleLabel).join(', ') : translate('finance.dashboard.noRoles'),
        })}
      </Typography>
    </>
  );
}
