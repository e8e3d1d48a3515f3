import type { MouseEvent } from 'react';
import { Link as MuiLink } from '@mui/material';
import { Link, useCreatePath, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { canWrite } from '../permissions';
import type { Video } from './types';

/** Where a video's lesson opens: its edit page (where the video panel is) for those who may edit it, else its page. */
export function useLessonPath() {
  const createPath = useCreatePath();
  const { permissions } = usePermissions();
  const type = canWrite(permissions, 'content-resources') ? 'edit' : 'show';
  return (lessonId: string) => createPath({ resource: 'content-resources', id: lessonId, type });
}

/** The video's lesson by its title, linked; a click stays with the link (the row would open the video). */
export function LessonLinkField(_props: { label?: string; sortable?: boolean }) {
  const video = useRecordContext<Video>();
  const lessonPath = useLessonPath();
  const translate = useTranslate();
  if (!video) return null;
  return (
    <MuiLink
      component={Link}
      to={lessonPath(video.lessonId)}
      onClick={(event: MouseEvent) => event.stopPropagation()}
      sx={{ wordBreak: 'break-word' }}
    >
      {video.lessonTitle || translate('console.common.untitled')}
    </MuiLink>
  );
}
