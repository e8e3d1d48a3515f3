import { Box, Chip, LinearProgress } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { choicesOf, type ChipLook } from '../common/chipLooks';
import type { Video, VideoStatus } from './types';

/** Each state's chip: waiting grey, under way amber (outlined), ready green, failed red. */
export const STATUS_LOOKS: Record<VideoStatus, ChipLook> = {
  queued: { label: 'resources.videos.status.queued', color: 'default' },
  processing: { label: 'resources.videos.status.processing', color: 'warning', outlined: true },
  ready: { label: 'resources.videos.status.ready', color: 'success' },
  failed: { label: 'resources.videos.status.failed', color: 'error' },
};

export const STATUS_CHOICES = choicesOf(STATUS_LOOKS);

/** "Processing 40 %" while processing, else the state's name. */
export function useStatusLabel() {
  const translate = useTranslate();
  return (video: Pick<Video, 'status' | 'progress'>) =>
    video.status === 'processing'
      ? translate('resources.videos.status.processingAt', { progress: video.progress })
      : translate(STATUS_LOOKS[video.status].label);
}

/** A video's state as a chip; while processing with its percentage, and a thin bar under it in a list. */
export function VideoStatusChip({ video, bar = false }: { video: Pick<Video, 'status' | 'progress'>; bar?: boolean }) {
  const label = useStatusLabel();
  const look = STATUS_LOOKS[video.status];
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexDirection: 'column', gap: 0.5, minWidth: 120 }}>
      <Chip
        size="small"
        label={label(video)}
        color={look.color}
        variant={look.outlined || look.color === 'default' ? 'outlined' : 'filled'}
        sx={{ alignSelf: 'flex-start' }}
      />
      {bar && video.status === 'processing' ? (
        <LinearProgress variant="determinate" value={video.progress} aria-hidden sx={{ borderRadius: 1 }} />
      ) : null}
    </Box>
  );
}

/** The record's state, as a list column or a show field. */
export function VideoStatusField(_props: { label?: string; sortable?: boolean; sortBy?: string }) {
  const video = useRecordContext<Video>();
  if (!video) return null;
  return <VideoStatusChip video={video} bar />;
}
