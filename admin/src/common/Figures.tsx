import type { ReactNode } from 'react';
import { Box, Card, CardContent, CircularProgress, Table, Typography } from '@mui/material';

/** One headline figure in a card, with what it counts below it. */
export function Figure({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <Card variant="outlined" sx={{ flex: '1 1 160px' }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary" component="h3">
          {label}
        </Typography>
        <Typography variant="h5" component="p" sx={{ fontVariantNumeric: 'tabular-nums' }}>
          {value}
        </Typography>
        {hint ? (
          <Typography variant="caption" color="text.secondary">
            {hint}
          </Typography>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** What stands in a chart's place while the chart library loads: the chart's height, so the page does not jump. */
export function ChartFallback({ height }: { height: number }) {
  return (
    <Box
      sx={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      role="status"
      aria-label="Loading the chart"
    >
      <CircularProgress size={28} />
    </Box>
  );
}

/** The chart's figures as a table, folded: the accessible (and exact) reading of the chart. */
export function FiguresTable({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="details" sx={{ mt: 1 }}>
      <Box component="summary" sx={{ cursor: 'pointer', typography: 'body2', color: 'primary.main', py: 0.5 }}>
        Show the figures as a table
      </Box>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label={title}>
          {children}
        </Table>
      </Box>
    </Box>
  );
}
