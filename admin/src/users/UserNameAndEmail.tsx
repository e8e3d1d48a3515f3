import { Box, Typography } from '@mui/material';
import { ReferenceField, useRecordContext } from 'react-admin';
import type { User } from './types';

/**
 * A person by name and email address, inside a ReferenceField to users: where the address is what matters
 * (team seats, transfers), the name alone is not enough.
 */
export function UserNameAndEmail() {
  const user = useRecordContext<User>();
  if (!user) return null;
  if (!user.name) return <span>{user.email}</span>;
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexDirection: 'column' }}>
      <span>{user.name}</span>
      <Typography component="span" variant="caption" color="text.secondary">
        {user.email}
      </Typography>
    </Box>
  );
}

interface PersonOptions {
  label?: string;
  emptyText?: string;
  sortable?: boolean;
}

/** A user by name and email, linked to their page: a column or a show field (see common/columns.tsx). */
export const person = (source: string, { sortable = false, ...o }: PersonOptions = {}) => (
  <ReferenceField key={source} source={source} reference="users" link="show" sortable={sortable} {...o}>
    <UserNameAndEmail />
  </ReferenceField>
);
