import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';

/**
 * A titled block inside a show tab, with its actions on the right. A plain element on purpose: show layouts
 * put a field label above any component child, not above DOM elements.
 */
export function section(title: string, actions: ReactNode, children: ReactNode, description?: ReactNode) {
  return (
    <div style={{ width: '100%' }}>
      <Box
        sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap', mb: 1 }}
      >
        <Box>
          <Typography variant="h6" component="h2">
            {title}
          </Typography>
          {description ? (
            <Typography variant="body2" color="text.secondary">
              {description}
            </Typography>
          ) : null}
        </Box>
        {actions}
      </Box>
      {children}
    </div>
  );
}
