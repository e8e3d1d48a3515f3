import { Box, Card, CardContent, Stack } from '@mui/material';
import { Title, usePermissions, useTranslate } from 'react-admin';
import { NoStaffRole } from './dashboard/NoStaffRole';
import { SalesPanel } from './dashboard/SalesPanel';
import { Welcome } from './dashboard/Welcome';
import { isStaff, rolesOf } from './permissions';

/** The landing page: sales figures for staff; for anyone else, what the account can and cannot do here. */
export function Dashboard() {
  const translate = useTranslate();
  const { permissions, isPending } = usePermissions();
  const roles = rolesOf(permissions);
  return (
    <Box sx={{ mt: 2 }}>
      <Title title={translate('finance.dashboard.title')} />
      <Card>
        <CardContent>
          <Stack spacing={2}>
            <Welcome roles={roles} />
            {isPending ? null : isStaff(permissions) ? (
              <SalesPanel />
            ) : (
              <NoStaffRole contributor={roles.includes('contributor')} />
            )}
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
