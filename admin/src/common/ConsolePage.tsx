import type { ReactNode } from 'react';
import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
import { Title } from 'react-admin';

interface ConsolePageProps {
  /** The page's name: the app bar's title and the first card's heading. */
  title: string;
  /** What the page is for, under the heading. */
  intro: ReactNode;
  /** The first card's own controls (a period, a form), under the intro. */
  controls?: ReactNode;
  /** The cards that follow. */
  children?: ReactNode;
}

/**
 * A console page that is not a resource's list (Finance, the Refunds report, the pricing simulator): its name in the
 * app bar, a first card with the heading, what the page is for and its controls, then its own cards.
 */
export function ConsolePage({ title, intro, controls, children }: ConsolePageProps) {
  return (
    // minWidth 0: in the layout's flex row a wide table scrolls inside its card instead of widening the page.
    <Box sx={{ mt: 2, mb: 4, minWidth: 0 }}>
      <Title title={title} />
      <Stack spacing={2}>
        <Card>
          <CardContent>
            <Typography variant="h5" component="h1" gutterBottom>
              {title}
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {intro}
            </Typography>
            {controls}
          </CardContent>
        </Card>
        {children}
      </Stack>
    </Box>
  );
}
