import EditIcon from '@mui/icons-material/Edit';
import { Button } from '@mui/material';
import { Link, ListButton, Show, TopToolbar, useRecordContext, useRedirect, useTranslate } from 'react-admin';
import { useLessonPath } from './LessonLink';
import type { Video } from './types';
import { VideoPanel } from './VideoPanel';

function VideoTitle() {
  const video = useRecordContext<Video>();
  const translate = useTranslate();
  return (
    <>
      {video
        ? translate('resources.videos.title', { title: video.lessonTitle || translate('console.common.untitled') })
        : translate('resources.videos.name', { smart_count: 1 })}
    </>
  );
}

function OpenLessonButton() {
  const video = useRecordContext<Video>();
  const lessonPath = useLessonPath();
  const translate = useTranslate();
  if (!video) return null;
  return (
    <Button size="small" component={Link} to={lessonPath(video.lessonId)} startIcon={<EditIcon />}>
      {translate('resources.videos.openLesson')}
    </Button>
  );
}

/** The panel of the lesson's edit page, here for one video; after Remove, back to the list. */
function VideoPage() {
  const video = useRecordContext<Video>();
  const redirect = useRedirect();
  const translate = useTranslate();
  if (!video) return null;
  return (
    <VideoPanel
      lessonId={video.lessonId}
      lessonTitle={video.lessonTitle || translate('console.common.untitled')}
      onRemoved={() => redirect('list', 'videos')}
    />
  );
}

export function VideoShow() {
  return (
    <Show
      title={<VideoTitle />}
      actions={
        <TopToolbar>
          <OpenLessonButton />
          <ListButton />
        </TopToolbar>
      }
    >
      <VideoPage />
    </Show>
  );
}
