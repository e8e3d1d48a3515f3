import { Box, CircularProgress, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

/**
 * Shown in the page's place while its code loads: a status that screen readers announce, with a spinner that they
 * skip (its words say it all). It takes the page's room at once, so the screen never stands blank.
 */
export function PageLoading({ label = 'console.layout.loadingPage' }: { label?: string }) {
  const translate = useTranslate();
  return (
    <Box role="status" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2, py: 8 }}>
      <CircularProgress size={28} aria-hidden />
      <Typography color="text.secondary">{translate(label, { _: label })}</Typography>
    </Box>
  );
}
