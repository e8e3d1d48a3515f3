import { Chip, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { ContentLink } from './types';

/** The link's tier: "Free" (open to everyone), "Paid", or not set (paid, unless it is a module's first lesson). */
export function TierField(_props: { label?: string; sortable?: boolean; source?: string }) {
  const record = useRecordContext<ContentLink>();
  const translate = useTranslate();
  const tier = record?.metadata?.tier;
  if (!record) return null;
  if (tier === 'free') return <Chip size="small" color="info" label={translate('console.content.tier.free')} />;
  if (tier === 'paid') return <Chip size="small" variant="outlined" label={translate('console.content.tier.paid')} />;
  return (
    <Typography variant="body2" color="text.secondary" component="span">
      {translate('console.content.tier.notSet')}
    </Typography>
  );
}
