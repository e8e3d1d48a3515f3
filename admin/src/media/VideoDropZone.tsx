import { useId, useState, type DragEvent } from 'react';
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import { Alert, Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { useTranslate } from 'react-admin';
import { formatBytesPair } from './bytes';
import { useVideoUpload, type VideoUploadState } from './videoUpload';

const words = (name: string) => `resources.videos.upload.${name}`;

function UploadProgress({
  state,
  onCancel,
}: {
  state: Extract<VideoUploadState, { phase: 'uploading' }>;
  onCancel(): void;
}) {
  const translate = useTranslate();
  const percent = state.total ? Math.floor((state.sent / state.total) * 100) : 0;
  const [sent, total] = formatBytesPair(state.sent, state.total);
  const label = translate(words('uploading'), { name: state.fileName });
  return (
    <Box role="status" aria-live="polite" sx={{ width: '100%' }}>
      <Typography variant="body2" sx={{ mb: 1, wordBreak: 'break-word' }}>
        {label}
      </Typography>
      <LinearProgress variant="determinate" value={percent} aria-label={label} sx={{ height: 8, borderRadius: 1 }} />
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, mt: 1 }}>
        <Typography variant="body2" color="text.secondary">
          {translate(words('progress'), { percent, sent, total })}
          {state.reconnecting ? (
            <Typography component="span" variant="body2" color="warning.main" sx={{ display: 'block' }}>
              {translate(words('reconnecting'))}
            </Typography>
          ) : null}
        </Typography>
        <Button size="small" onClick={onCancel}>
          {translate(words('cancel'))}
        </Button>
      </Box>
    </Box>
  );
}

interface VideoDropZoneProps {
  lessonId: string;
  /** The upload arrived and became the lesson's video (queued for processing). */
  onUploaded(videoId: string | null): void;
  /** What the zone says above its input (a catalog key), e.g. when it replaces a video. */
  prompt?: string;
  disabled?: boolean;
}

/**
 * Where a lesson's video is dropped or chosen (any file: the server says whether it is a video), then its upload's
 * progress in percent and megabytes with Cancel; a refused or stalled upload says why, and one that stalled offers
 * Resume from where the server got to.
 */
export function VideoDropZone({ lessonId, onUploaded, prompt = words('drop'), disabled = false }: VideoDropZoneProps) {
  const translate = useTranslate();
  const inputId = useId();
  const { state, start, resume, cancel } = useVideoUpload(lessonId, onUploaded);
  const [over, setOver] = useState(false);
  const [tooMany, setTooMany] = useState(false);

  const take = (files: FileList | null) => {
    const file = files?.[0];
    setTooMany((files?.length ?? 0) > 1);
    if (file) void start(file);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!disabled && state.phase !== 'uploading') take(event.dataTransfer.files);
  };

  if (state.phase === 'uploading') return <UploadProgress state={state} onCancel={cancel} />;

  return (
    <Stack spacing={1.5} sx={{ width: '100%' }}>
      {state.phase === 'failed' ? (
        <Alert
          severity="error"
          action={
            state.resumable ? (
              <Button color="inherit" size="small" onClick={resume}>
                {translate(words('resume'))}
              </Button>
            ) : undefined
          }
        >
          <strong>{translate(words('failed'), { name: state.fileName })}</strong> {state.message}
        </Alert>
      ) : null}
      <Box
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
          setOver(true);
        }}
        onDragLeave={(event) => {
          // Moving over the zone's own text and button is still over the zone.
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
        }}
        onDrop={onDrop}
        data-testid="video-drop-zone"
        sx={{
          border: 2,
          borderStyle: 'dashed',
          borderColor: over ? 'primary.main' : 'divider',
          bgcolor: over ? 'action.hover' : 'transparent',
          borderRadius: 1,
          p: 3,
          textAlign: 'center',
          transition: 'background-color 120ms, border-color 120ms',
        }}
      >
        <CloudUploadOutlinedIcon sx={{ fontSize: 40, color: 'text.secondary' }} aria-hidden />
        <Typography variant="body1" sx={{ mb: 1 }}>
          {translate(prompt)}
        </Typography>
        <Button
          component="label"
          htmlFor={inputId}
          role={undefined}
          tabIndex={-1}
          variant="outlined"
          disabled={disabled}
          sx={{ '&:focus-within': { outline: 2, outlineColor: 'primary.main', outlineOffset: 2 } }}
        >
          {translate(words('choose'))}
          <input
            id={inputId}
            type="file"
            accept="video/*"
            disabled={disabled}
            // Out of sight but focusable (the keyboard reaches it); its button shows where the focus is.
            style={visuallyHidden}
            onChange={(event) => {
              take(event.currentTarget.files);
              event.currentTarget.value = ''; // the same file may be chosen again (to resume)
            }}
          />
        </Button>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {translate(tooMany ? words('oneAtATime') : words('help'))}
        </Typography>
      </Box>
    </Stack>
  );
}
