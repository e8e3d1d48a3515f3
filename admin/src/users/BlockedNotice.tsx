import { Alert, AlertTitle } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { User } from './types';

/** On a blocked person's page: since when, why, and what a block means. Nothing for anyone else. */
export function BlockedNotice(_props: { label?: false }) {
  const user = useRecordContext<User>();
  const translate = useTranslate();
  if (!user?.blockedAt) return null;
  const when = new Date(user.blockedAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Alert severity="error" role="status" sx={{ mb: 1 }}>
      <AlertTitle>{translate('resources.users.blocked.banner', { when, reason: user.blockedReason ?? '' })}</AlertTitle>
      {translate('resources.users.blocked.bannerNote')}
    </Alert>
  );
}
