import { Divider } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { ContentResource } from '../content-resources/types';
import { VideoPanel } from './VideoPanel';

/**
 * On a lesson's edit page, below the form and apart from it (its writes do not wait for Save): the lesson's video.
 * Nothing for other types of content.
 */
export function LessonVideoPanel() {
  const record = useRecordContext<ContentResource>();
  const translate = useTranslate();
  if (record?.type !== 'lesson') return null;
  return (
    <>
      <Divider />
      <VideoPanel
        lessonId={String(record.id)}
        lessonTitle={record.fields?.title || translate('console.common.untitled')}
        besideForm
      />
    </>
  );
}
