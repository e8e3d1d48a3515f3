import { useId, useState, type ReactNode } from 'react';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import ReplayIcon from '@mui/icons-material/Replay';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import { Alert, Box, Button, CircularProgress, LinearProgress, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useDataProvider, useNotify, usePermissions, useTranslate } from 'react-admin';
import { ConfirmActionDialog, problemOf } from '../common/ActionDialog';
import type { ConsoleDataProvider } from '../dataProvider';
import { formatBytes } from '../media/bytes';
import { VideoDropZone } from '../media/VideoDropZone';
import { canWrite } from '../permissions';
import { Captions } from './Captions';
import { formatDuration, formatRenditions } from './format';
import { VideoStatusChip } from './status';
import type { Video } from './types';
import { useLessonVideo } from './useLessonVideo';

const words = (name: string) => `resources.videos.panel.${name}`;

/** One fact of the video: its name above, its value below. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box>
      <Typography component="dt" variant="caption" color="text.secondary">
        {translate(label)}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
        {children}
      </Typography>
    </Box>
  );
}

function Facts({ video }: { video: Video }) {
  const field = (name: string) => `resources.videos.fields.${name}`;
  return (
    <Box
      component="dl"
      sx={{ m: 0, display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', flex: 1 }}
    >
      <Fact label={field('sourceName')}>{video.sourceName}</Fact>
      <Fact label={field('sourceSize')}>{formatBytes(video.sourceSize)}</Fact>
      <Fact label={field('durationMs')}>{formatDuration(video.durationMs)}</Fact>
      <Fact label={field('renditionHeights')}>{formatRenditions(video.renditionHeights)}</Fact>
      <Fact label={field('resolution')}>{video.width && video.height ? `${video.width} × ${video.height}` : '—'}</Fact>
      <Fact label={field('processedAt')}>{video.processedAt ? new Date(video.processedAt).toLocaleString() : '—'}</Fact>
    </Box>
  );
}

/** Queued, processing with its bar, failed with the reason and Retry; ready says nothing more than its facts. */
function Progress({ video, writable, onChange }: { video: Video; writable: boolean; onChange(video: Video): void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const retry = useMutation({
    mutationFn: () => dataProvider.retryVideo(video.id),
    onSuccess: ({ data }) => {
      notify(words('retried'), { type: 'success' });
      onChange(data);
    },
    onError: (error) => notify(problemOf(error, translate(words('retryFailed'))).message, { type: 'error' }),
  });
  if (video.status === 'queued') {
    return (
      <Box role="status">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate(words('queued'))}
        </Typography>
        <LinearProgress aria-label={translate(words('processingLabel'))} />
      </Box>
    );
  }
  if (video.status === 'processing') {
    return (
      <Box role="status">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate(words('processing'), { progress: video.progress })}
        </Typography>
        <LinearProgress
          variant="determinate"
          value={video.progress}
          aria-label={translate(words('processingLabel'))}
          sx={{ height: 8, borderRadius: 1 }}
        />
      </Box>
    );
  }
  if (video.status === 'failed') {
    return (
      <Alert
        severity="error"
        action={
          writable ? (
            <Button
              color="inherit"
              size="small"
              startIcon={retry.isPending ? <CircularProgress size={14} color="inherit" aria-hidden /> : <ReplayIcon />}
              disabled={retry.isPending}
              onClick={() => retry.mutate()}
            >
              {translate(words('retry'))}
            </Button>
          ) : undefined
        }
      >
        <strong>{translate(words('failed'))}:</strong> {video.error}
      </Alert>
    );
  }
  return null;
}

function RemoveDialog({ video, title, onClose, onRemoved }: RemoveProps & { onClose(): void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const remove = useMutation({
    mutationFn: () => dataProvider.delete('videos', { id: video.id, previousData: video }),
    onSuccess: () => {
      notify(words('removed'), { type: 'success' });
      onRemoved();
    },
  });
  return (
    <ConfirmActionDialog
      title={words('removeTitle')}
      question={translate(words('removeQuestion'), { title })}
      details={words('removeDetails')}
      busyLabel={words('removing')}
      confirmLabel={words('remove')}
      failure={words('removeFailed')}
      mutation={remove}
      onClose={onClose}
    />
  );
}

interface RemoveProps {
  video: Video;
  title: string;
  onRemoved(): void;
}

interface VideoPanelProps {
  lessonId: string;
  /** The lesson's title, for the poster's description and the removal's question. */
  lessonTitle: string;
  /** After Remove (e.g. back to the list from the video's own page). */
  onRemoved?(): void;
  /** Beside a form: say that the panel's writes do not wait for its Save. */
  besideForm?: boolean;
}

/**
 * A lesson's video in the console: drop or choose a file to upload it (resumable); then its state, asked for again
 * while it is queued or processing (Processing 40 %), ready with its poster and facts, or failed with the reason and
 * Retry; Replace video, Remove video (confirmed), and its captions. Writes take effect at once (not with Save).
 * Roles that may only read see the same without the buttons.
 */
export function VideoPanel({ lessonId, lessonTitle, onRemoved, besideForm = false }: VideoPanelProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const headingId = useId();
  const { permissions } = usePermissions();
  const writable = canWrite(permissions, 'videos');
  const { query, set, reload } = useLessonVideo(lessonId);
  const [replacing, setReplacing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const video = query.data;

  const uploaded = () => {
    setReplacing(false);
    notify(words('uploaded'), { type: 'success' });
    void reload();
  };

  let body: ReactNode;
  if (query.isPending) {
    body = <LinearProgress aria-label={translate(words('loading'))} />;
  } else if (query.isError) {
    body = <Alert severity="error">{problemOf(query.error, translate(words('loadFailed'))).message}</Alert>;
  } else if (!video) {
    body = (
      <Stack spacing={2}>
        <Typography variant="body2" color="text.secondary">
          {translate(words('none'))}
        </Typography>
        {writable ? <VideoDropZone lessonId={lessonId} onUploaded={uploaded} /> : null}
      </Stack>
    );
  } else {
    body = (
      <Stack spacing={2}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <VideoStatusChip video={video} />
        </Box>
        <Progress video={video} writable={writable} onChange={set} />
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          {video.status === 'ready' && video.posterUrl ? (
            <Box
              component="img"
              src={video.posterUrl}
              alt={translate(words('poster'), { title: lessonTitle })}
              sx={{ width: 240, maxWidth: '100%', aspectRatio: '16 / 9', objectFit: 'contain', bgcolor: 'black' }}
            />
          ) : null}
          <Facts video={video} />
        </Box>
        {writable ? (
          replacing ? (
            <Stack spacing={1}>
              <Typography variant="body2" color="text.secondary">
                {translate(words('replaceNote'))}
              </Typography>
              <VideoDropZone lessonId={lessonId} onUploaded={uploaded} prompt={words('replacePrompt')} />
              <Box>
                <Button size="small" onClick={() => setReplacing(false)}>
                  {translate(words('keep'))}
                </Button>
              </Box>
            </Stack>
          ) : (
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              <Button size="small" variant="outlined" startIcon={<SwapHorizIcon />} onClick={() => setReplacing(true)}>
                {translate(words('replace'))}
              </Button>
              <Button
                size="small"
                variant="outlined"
                color="error"
                startIcon={<DeleteOutlineIcon />}
                onClick={() => setRemoving(true)}
              >
                {translate(words('remove'))}
              </Button>
            </Box>
          )
        ) : null}
        <Captions video={video} writable={writable} onChange={set} />
        {removing ? (
          <RemoveDialog
            video={video}
            title={lessonTitle}
            onClose={() => setRemoving(false)}
            onRemoved={() => {
              setRemoving(false);
              void set(null);
              onRemoved?.();
            }}
          />
        ) : null}
      </Stack>
    );
  }

  return (
    <Box component="section" aria-labelledby={headingId} className="video-panel" sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" id={headingId}>
        {translate(words('title'))}
      </Typography>
      {besideForm ? (
        <Typography variant="body2" color="text.secondary">
          {translate(words('note'))}
        </Typography>
      ) : null}
      <Box sx={{ mt: 2 }}>{body}</Box>
    </Box>
  );
}
