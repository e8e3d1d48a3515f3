import { useMemo } from 'react';
import { Box, Typography, type SxProps, type Theme } from '@mui/material';
import { useFieldValue, useRecordContext, useTranslate, type FieldProps } from 'react-admin';
import { withEmbedCards } from './embedCards';
import { safeHtml } from './safeHtml';

/** Readable defaults for lesson bodies: headings, code, tables with borders, images that fit. */
export const richTextSx: SxProps<Theme> = {
  maxWidth: '75ch',
  overflowWrap: 'anywhere',
  '& h1': { typography: 'h4', mt: 2, mb: 1 },
  '& h2': { typography: 'h5', mt: 2, mb: 1 },
  '& h3': { typography: 'h6', mt: 2, mb: 1 },
  '& h4': { typography: 'subtitle1', fontWeight: 600, mt: 2, mb: 1 },
  '& p': { typography: 'body1', my: 1 },
  '& ul, & ol': { pl: 3 },
  '& a': { color: 'primary.main' },
  '& code': { fontFamily: 'monospace', fontSize: '0.9em', bgcolor: 'action.hover', px: 0.5, borderRadius: 0.5 },
  '& pre': { fontFamily: 'monospace', bgcolor: 'action.hover', p: 1.5, borderRadius: 1, overflowX: 'auto' },
  '& pre code': { bgcolor: 'transparent', p: 0 },
  '& blockquote': { borderLeft: 4, borderColor: 'divider', pl: 2, ml: 0, color: 'text.secondary' },
  '& img': { maxWidth: '100%', height: 'auto' },
  '& table': { borderCollapse: 'collapse', my: 1 },
  '& th, & td': { border: 1, borderColor: 'divider', px: 1, py: 0.5, verticalAlign: 'top', textAlign: 'left' },
  '& th': { bgcolor: 'action.hover', fontWeight: 600 },
  '& td p, & th p': { my: 0, minHeight: '1.5em' },
  '& .rich-text-embed': { p: 2, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'action.hover' },
};

export type RichTextFieldProps = FieldProps & { emptyText?: string };

/** Shows stored rich text (HTML) as it will read, through a client-side allow-list as a second safety net. */
export function RichTextField({ source, emptyText = '—' }: RichTextFieldProps) {
  const record = useRecordContext();
  const value = useFieldValue({ source, record });
  const translate = useTranslate();
  const html = useMemo(
    () =>
      typeof value === 'string' && value.trim()
        ? withEmbedCards(safeHtml(value), (provider, title) => translate('console.embeds.card', { provider, title }))
        : '',
    [value, translate],
  );
  if (!html) {
    return (
      <Typography variant="body2" color="text.secondary" component="span">
        {emptyText}
      </Typography>
    );
  }
  return <Box className="rich-text-body" sx={richTextSx} dangerouslySetInnerHTML={{ __html: html }} />;
}
