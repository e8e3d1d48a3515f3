import VideoLibraryIcon from '@mui/icons-material/VideoLibrary';
import type { Video } from './types';
import { lazyScreen } from '../common/lazyScreen';

const VideoList = lazyScreen(() => import('./VideoList'), 'VideoList');
const VideoShow = lazyScreen(() => import('./VideoShow'), 'VideoShow');

/**
 * Lesson videos (api/src/video/admin-routes.ts): the list and a video's page. No create or edit screens: a video is
 * uploaded, replaced, retried, captioned and removed in its panel (VideoPanel.tsx), on the lesson's edit page too.
 */
export default {
  list: VideoList,
  show: VideoShow,
  icon: VideoLibraryIcon,
  recordRepresentation: (video: Video) => video.lessonTitle || video.sourceName,
};
