import { Box, Typography } from '@mui/material';
import { useText } from './useText';

/** A JSON value, indented and wrapped, readable by people and by screen readers. */
export function JsonBlock({ value, label }: { value: unknown; label?: string }) {
  const text = useText();
  if (value === null || value === undefined) {
    return (
      <Typography variant="body2" color="text.secondary">
        —
      </Typography>
    );
  }
  return (
    <Box
      component="pre"
      aria-label={label && text(label)}
      sx={{
        m: 0,
        p: 2,
        bgcolor: 'action.hover',
        borderRadius: 1,
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-word',
        fontFamily: 'monospace',
        fontSize: 13,
        maxHeight: 480,
        overflow: 'auto',
      }}
    >
      {JSON.stringify(value, null, 2)}
    </Box>
  );
}
