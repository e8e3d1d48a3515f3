import { useId, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Link as MuiLink,
  List,
  ListItem,
  Pagination,
  Stack,
  TextField as MuiTextField,
  Typography,
} from '@mui/material';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useCreatePath, useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { TimelineKind, TimelinePage } from '@contract/admin/schemas/timeline';
import type { Wire } from '@contract/shared/wire';
import { retryUnanswered, type ConsoleDataProvider, type TimelineOf } from '../dataProvider';

const PER_PAGE = 25;

/** Each kind's colour on its chip: money in colour, the rest quiet. */
const KIND_COLOR: Record<TimelineKind, 'default' | 'primary' | 'success' | 'warning' | 'error' | 'info' | 'secondary'> =
  {
    purchase: 'success',
    seat: 'success',
    transfer: 'secondary',
    payment: 'primary',
    refund: 'warning',
    dispute: 'error',
    'sign-in': 'default',
    email: 'info',
    note: 'secondary',
    'staff-action': 'default',
  };

const dateTime = (at: string) => new Date(at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** Add an internal note: who and when are recorded; the person never sees it. */
function NoteForm({ of, id, onAdded }: { of: TimelineOf; id: string; onAdded(): void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();
  const add = useMutation({
    mutationFn: () => dataProvider.addNote(of, id, body),
    onSuccess: () => {
      setBody('');
      setError(null);
      notify('console.timeline.noteAdded', { type: 'success' });
      onAdded();
    },
    onError: (e: Error) => setError(e.message),
  });
  return (
    <Box
      component="form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!body.trim()) return setError(translate('console.timeline.noteEmpty'));
        add.mutate();
      }}
      sx={{ mb: 2 }}
    >
      <MuiTextField
        id={fieldId}
        label={translate('console.timeline.note')}
        helperText={error ?? translate('console.timeline.noteHelp')}
        error={Boolean(error)}
        value={body}
        onChange={(event) => setBody(event.target.value)}
        multiline
        minRows={2}
        fullWidth
        slotProps={{ htmlInput: { maxLength: 5000 } }}
      />
      <Button type="submit" variant="contained" size="small" sx={{ mt: 1 }} disabled={add.isPending}>
        {add.isPending ? translate('console.timeline.adding') : translate('console.timeline.addNote')}
      </Button>
    </Box>
  );
}

/**
 * Everything that happened to a person or a purchase, newest first, with staff notes (GET …/timeline): a page of
 * 25 at a time, each entry linked to its record.
 */
export function Timeline({ of, id }: { of: TimelineOf; id: string; label?: false }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const createPath = useCreatePath();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const key = ['timeline', of, id, page];
  const { data, isPending, error, isFetching } = useQuery<Wire<TimelinePage>>({
    queryKey: key,
    queryFn: ({ signal }) =>
      dataProvider.getTimeline(of, id, { page, perPage: PER_PAGE }, { signal }).then((answer) => answer.data),
    placeholderData: keepPreviousData,
    retry: retryUnanswered,
  });
  const reload = () => {
    setPage(1);
    return queryClient.invalidateQueries({ queryKey: ['timeline', of, id] });
  };
  const pages = data ? Math.max(1, Math.ceil(data.total / PER_PAGE)) : 1;
  return (
    <Box component="section" aria-labelledby={`timeline-${id}`} sx={{ width: '100%' }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="h6" component="h2" id={`timeline-${id}`}>
          {translate('console.timeline.title')}
        </Typography>
        {isFetching && <CircularProgress size={16} aria-label={translate('console.timeline.loading')} />}
      </Stack>
      <NoteForm of={of} id={id} onAdded={reload} />
      {error ? (
        <Alert severity="error">{translate('console.timeline.failed')}</Alert>
      ) : isPending || !data ? (
        <Typography variant="body2" color="text.secondary" role="status">
          {translate('console.timeline.loading')}
        </Typography>
      ) : data.data.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {translate('console.timeline.empty')}
        </Typography>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" role="status">
            {translate('console.timeline.count', { smart_count: data.total })}
          </Typography>
          <List aria-label={translate('console.timeline.title')} dense>
            {data.data.map((event) => (
              <ListItem
                key={event.id}
                divider
                alignItems="flex-start"
                sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '11rem 8rem 1fr' }, gap: 1 }}
              >
                <Typography variant="body2" color="text.secondary" component="time" dateTime={event.at}>
                  {dateTime(event.at)}
                </Typography>
                <Box>
                  <Chip
                    size="small"
                    label={translate(`console.timeline.kinds.${event.kind}`)}
                    color={KIND_COLOR[event.kind]}
                    variant={event.kind === 'note' ? 'filled' : 'outlined'}
                  />
                </Box>
                <Box>
                  <Typography variant="body2">
                    {event.link ? (
                      <MuiLink
                        component={Link}
                        to={createPath({ resource: event.link.resource, id: event.link.id, type: 'show' })}
                      >
                        {event.summary}
                      </MuiLink>
                    ) : (
                      event.summary
                    )}
                  </Typography>
                  {event.detail && (
                    <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-wrap' }}>
                      {event.detail}
                    </Typography>
                  )}
                  {event.by && (
                    <Typography variant="caption" color="text.secondary">
                      {translate('console.timeline.by', { who: event.by })}
                    </Typography>
                  )}
                </Box>
              </ListItem>
            ))}
          </List>
          {pages > 1 && (
            <Pagination
              count={pages}
              page={page}
              onChange={(_, next) => setPage(next)}
              getItemAriaLabel={(type, n) =>
                type === 'page' ? translate('console.timeline.page', { n }) : translate(`console.timeline.${type}`)
              }
            />
          )}
        </>
      )}
    </Box>
  );
}
