import { useEffect } from 'react';
import VideoLibraryOutlinedIcon from '@mui/icons-material/VideoLibraryOutlined';
import { useMediaQuery, type Theme } from '@mui/material';
import { FunctionField, SimpleList, TextField, useListContext, useTranslate, type SortPayload } from 'react-admin';
import { date } from '../common/columns';
import { NoneFound } from '../common/EmptyState';
import { choiceFilter, searchFilter } from '../common/filters';
import { RecordList } from '../common/RecordList';
import { Rows } from '../common/Rows';
import { formatBytes } from '../media/bytes';
import { formatDuration } from './format';
import { LessonLinkField } from './LessonLink';
import { STATUS_CHOICES, useStatusLabel, VideoStatusField } from './status';
import { isUnderWay, POLL_MS, type Video } from './types';

const filters = [searchFilter('resources.videos.search'), choiceFilter('status', STATUS_CHOICES)];

const RECENT_FIRST: SortPayload = { field: 'updatedAt', order: 'DESC' };

/** While a video on the page is queued or processing, the page is read again (staff watching a bulk import). */
function RefreshWhileUnderWay() {
  const { data, refetch } = useListContext<Video>();
  const underWay = Boolean(data?.some(isUnderWay));
  useEffect(() => {
    if (!underWay) return;
    const timer = setInterval(() => void refetch(), POLL_MS);
    return () => clearInterval(timer);
  }, [underWay, refetch]);
  return null;
}

/** On a phone: one line per video (lesson, state, length and size), opening it. */
function NarrowRows() {
  const translate = useTranslate();
  const statusLabel = useStatusLabel();
  return (
    <SimpleList<Video>
      rowClick="show"
      primaryText={(v) => v.lessonTitle || translate('console.common.untitled')}
      secondaryText={(v) => `${statusLabel(v)} · ${formatDuration(v.durationMs)} · ${formatBytes(v.sourceSize)}`}
      tertiaryText={(v) => new Date(v.updatedAt).toLocaleDateString()}
      empty={<NoneFound>{translate('resources.videos.noneFound')}</NoneFound>}
    />
  );
}

/**
 * Every lesson video and its state, the ones changing most recently first: while any on the page is under way it
 * is read again every few seconds, so a bulk import can be watched here; a row opens the video's panel.
 */
export function VideoList() {
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <RecordList
      filters={filters}
      icon={VideoLibraryOutlinedIcon}
      sort={RECENT_FIRST}
      rows={
        <>
          <RefreshWhileUnderWay />
          {narrow ? (
            <NarrowRows />
          ) : (
            <Rows empty="resources.videos.noneFound">
              <LessonLinkField label="resources.videos.fields.lessonTitle" sortable={false} />
              <VideoStatusField label="resources.videos.fields.status" sortBy="status" />
              <FunctionField<Video>
                source="durationMs"
                sortBy="durationMs"
                render={(v) => formatDuration(v.durationMs)}
              />
              <FunctionField<Video> source="sourceSize" sortBy="sourceSize" render={(v) => formatBytes(v.sourceSize)} />
              <TextField source="sourceName" sortable />
              {date('updatedAt', { sortable: true })}
            </Rows>
          )}
        </>
      }
    />
  );
}
