import { useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Pagination,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import SendIcon from '@mui/icons-material/Send';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useCreatePath, useDataProvider, useNotify, useRecordContext, useTranslate } from 'react-admin';
import type { PersonEmail, PersonEmailsPage } from '@contract/mail/schemas';
import type { Wire } from '@contract/shared/wire';
import { problemOf } from '../common/ActionDialog';
import { newRequestKey } from '../common/requestKey';
import { canRead } from '../permissions';
import { retryUnanswered, type ConsoleDataProvider } from '../dataProvider';
import { STATUS_LOOKS } from '../outbox-emails/choices';
import type { User } from './types';

const PER_PAGE = 10;

const dateTime = (at: string) => new Date(at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Resend one email: each click has its own request key, so a double click (or the request retried) makes one copy;
 * the button waits for the answer before it can be clicked again.
 */
function ResendButton({ user, email, onDone }: { user: User; email: Wire<PersonEmail>; onDone(): void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  // The click under way: another click meanwhile (a double click lands before the button is drawn disabled) is the same.
  const inFlight = useRef<string | null>(null);
  const resend = useMutation({
    mutationFn: (requestKey: string) => dataProvider.resendPersonEmail(user.id, email.id, requestKey),
    onSettled: () => {
      inFlight.current = null;
    },
    onSuccess: ({ data }) => {
      const args = { subject: data.email.subject, to: data.email.toAddress };
      notify(data.created ? 'resources.users.emails.resent' : 'resources.users.emails.alreadyResent', {
        type: 'success',
        messageArgs: args,
      });
      onDone();
    },
    onError: (error) =>
      notify(problemOf(error, translate('resources.users.emails.resendFailed')).message, { type: 'error' }),
  });
  const button = (
    <Button
      size="small"
      startIcon={resend.isPending ? <CircularProgress size={14} color="inherit" aria-hidden /> : <SendIcon />}
      disabled={!email.resendable || resend.isPending}
      onClick={() => {
        if (inFlight.current) return;
        inFlight.current = newRequestKey();
        resend.mutate(inFlight.current);
      }}
      aria-label={`${translate('resources.users.emails.resend')}: ${email.subject}`}
    >
      {translate(resend.isPending ? 'resources.users.emails.resending' : 'resources.users.emails.resend')}
    </Button>
  );
  // A disabled button gets no pointer events: the tooltip goes on a wrapper.
  return email.whyNot ? (
    <Tooltip title={email.whyNot}>
      <span>{button}</span>
    </Tooltip>
  ) : (
    button
  );
}

/**
 * The person's emails on their page (GET /api/admin/users/:id/emails): subject, state and when, newest first, with
 * Resend on each (a copy to their current address), so support never leaves the person's page. Admins, who read the
 * outbox, get each subject linked to the email itself.
 */
export function PersonEmails({ permissions }: { permissions: unknown; label?: false }) {
  const user = useRecordContext<User>();
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const createPath = useCreatePath();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const { data, isPending, error, isFetching } = useQuery<Wire<PersonEmailsPage>>({
    queryKey: ['person-emails', user?.id, page],
    queryFn: ({ signal }) =>
      dataProvider.getPersonEmails(user!.id, { page, perPage: PER_PAGE }, { signal }).then((answer) => answer.data),
    enabled: Boolean(user),
    placeholderData: keepPreviousData,
    retry: retryUnanswered,
  });
  if (!user) return null;
  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: ['person-emails', user.id] });
    void queryClient.invalidateQueries({ queryKey: ['timeline', 'users', user.id] });
  };
  const linksOpen = canRead(permissions, 'outbox-emails');
  const pages = data ? Math.max(1, Math.ceil(data.total / PER_PAGE)) : 1;
  return (
    <Box component="section" aria-labelledby={`emails-${user.id}`} sx={{ width: '100%' }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="h6" component="h2" id={`emails-${user.id}`}>
          {translate('resources.users.emails.title')}
        </Typography>
        {isFetching && <CircularProgress size={16} aria-label={translate('resources.users.emails.loading')} />}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('resources.users.emails.intro', { email: user.email })}
      </Typography>
      {error ? (
        <Alert severity="error">{translate('resources.users.emails.failed')}</Alert>
      ) : isPending || !data ? (
        <Typography variant="body2" color="text.secondary" role="status">
          {translate('resources.users.emails.loading')}
        </Typography>
      ) : data.data.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {translate('resources.users.emails.empty')}
        </Typography>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" role="status">
            {translate('resources.users.emails.count', { smart_count: data.total })}
          </Typography>
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-labelledby={`emails-${user.id}`}>
              <TableHead>
                <TableRow>
                  <TableCell>{translate('resources.users.emails.when')}</TableCell>
                  <TableCell>{translate('resources.users.emails.subject')}</TableCell>
                  <TableCell>{translate('resources.users.emails.status')}</TableCell>
                  <TableCell>{translate('resources.users.emails.sentAt')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {data.data.map((email) => {
                  const look = STATUS_LOOKS[email.status];
                  return (
                    <TableRow key={email.id} data-email-id={email.id}>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        <time dateTime={email.createdAt}>{dateTime(email.createdAt)}</time>
                      </TableCell>
                      <TableCell>
                        {linksOpen ? (
                          <Link to={createPath({ resource: 'outbox-emails', id: email.id, type: 'show' })}>
                            {email.subject}
                          </Link>
                        ) : (
                          email.subject
                        )}
                        <Typography variant="caption" color="text.secondary" component="div">
                          {[
                            email.kind,
                            // Sent before support changed their address: to the one they had then.
                            email.toAddress.toLowerCase() !== user.email.toLowerCase()
                              ? translate('resources.users.emails.sentTo', { to: email.toAddress })
                              : null,
                            email.resentFromId ? translate('resources.users.emails.copy') : null,
                          ]
                            .filter(Boolean)
                            .join(' · ')}
                        </Typography>
                      </TableCell>
                      <TableCell>
                        <Chip
                          size="small"
                          label={translate(look.label)}
                          color={look.color}
                          variant={look.outlined ? 'outlined' : 'filled'}
                        />
                        {email.lastError && email.status !== 'sent' ? (
                          <Typography variant="caption" color="error" component="div">
                            {email.lastError}
                          </Typography>
                        ) : null}
                      </TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        {email.sentAt ? dateTime(email.sentAt) : translate('resources.users.emails.notSent')}
                      </TableCell>
                      <TableCell align="right">
                        <ResendButton user={user} email={email} onDone={reload} />
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </Box>
          {pages > 1 && (
            <Pagination sx={{ mt: 2 }} count={pages} page={page} onChange={(_event, next) => setPage(next)} />
          )}
        </>
      )}
    </Box>
  );
}
