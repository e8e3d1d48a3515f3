import { Chip, Stack, Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { roleLabel } from './choices';
import type { User } from './types';

const STAFF_COLORS: Record<string, 'primary' | 'success' | 'info' | 'default'> = {
  admin: 'primary',
  support: 'info',
  finance: 'success',
};

/** A user's roles as chips. The props are read by Datagrid (column label, sorting). */
export function RolesField(_props: { label?: string; sortable?: boolean }) {
  const record = useRecordContext<User>();
  if (!record) return null;
  if (!record.roles.length) {
    return (
      <Typography variant="body2" color="text.secondary">
        No roles
      </Typography>
    );
  }
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {record.roles.map((role) => (
        <Chip
          key={role}
          label={roleLabel(role)}
          size="small"
          color={STAFF_COLORS[role] ?? 'default'}
          variant={role in STAFF_COLORS ? 'filled' : 'outlined'}
        />
      ))}
    </Stack>
  );
}
