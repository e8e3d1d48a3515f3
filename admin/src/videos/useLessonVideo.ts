import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { retryUnanswered, type ConsoleDataProvider } from '../dataProvider';
import { isUnderWay, POLL_MS, type Video } from './types';

const keyOf = (lessonId: string) => ['videos', 'getLessonVideo', lessonId];

/**
 * A lesson's video (null when it has none), asked for again every POLL_MS while it is queued or processing. `set`
 * puts a write's answer in place (a read begun before it is dropped) and has the videos list (and a video's page, unless it was removed) read again.
 */
export function useLessonVideo(lessonId: string) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const queryClient = useQueryClient();
  const query = useQuery<Video | null>({
    queryKey: keyOf(lessonId),
    queryFn: ({ signal }) => dataProvider.getLessonVideo(lessonId, { signal }).then(({ data }) => data),
    refetchInterval: (q) => (isUnderWay(q.state.data) ? POLL_MS : false),
    retry: retryUnanswered,
  });
  const set = useCallback(
    async (video: Video | null) => {
      // A read still under way began before this write: its older answer must not land over the write's.
      await queryClient.cancelQueries({ queryKey: keyOf(lessonId) });
      queryClient.setQueryData(keyOf(lessonId), video);
      void queryClient.invalidateQueries({ queryKey: ['videos', 'getList'] });
      if (video) void queryClient.invalidateQueries({ queryKey: ['videos', 'getOne'] });
    },
    [queryClient, lessonId],
  );
  /** After an upload: the new state comes from the API. */
  const reload = useCallback(() => queryClient.invalidateQueries({ queryKey: ['videos'] }), [queryClient]);
  return { query, set, reload };
}
