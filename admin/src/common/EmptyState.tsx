import type { ComponentType, ReactNode } from 'react';
import { Box, Typography } from '@mui/material';
import { useText } from './useText';

interface EmptyStateProps {
  icon: ComponentType<{ sx?: object; 'aria-hidden'?: boolean }>;
  title: string;
  children?: ReactNode;
  /** E.g. a create button. */
  action?: ReactNode;
}

/** What a list shows before its first record exists: what the records are and where they come from (keys or text). */
export function EmptyState({ icon: Icon, title, children, action }: EmptyStateProps) {
  const text = useText();
  return (
    <Box sx={{ textAlign: 'center', py: 8, px: 2, width: '100%' }}>
      <Icon sx={{ fontSize: 64, color: 'text.disabled' }} aria-hidden />
      <Typography variant="h6" component="p">
        {text(title)}
      </Typography>
      {children ? (
        <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 560, mx: 'auto', mt: 1 }}>
          {text(children)}
        </Typography>
      ) : null}
      {action ? <Box sx={{ mt: 2 }}>{action}</Box> : null}
    </Box>
  );
}

/** The line a Datagrid shows when filters (or a reference) match nothing. */
export function NoneFound({ children }: { children: ReactNode }) {
  const text = useText();
  return (
    <Typography sx={{ p: 2 }} color="text.secondary">
      {text(children)}
    </Typography>
  );
}
