import BookmarkIcon from '@mui/icons-material/Bookmark';
import { lazyScreen } from '../common/lazyScreen';

const BookmarkList = lazyScreen(() => import('./BookmarkList'), 'BookmarkList');
const BookmarkShow = lazyScreen(() => import('./BookmarkShow'), 'BookmarkShow');

/** Read-only: learners bookmark from the storefront. */
export default {
  list: BookmarkList,
  show: BookmarkShow,
  icon: BookmarkIcon,
  recordRepresentation: (b: { type: string }) => `Bookmark (${b.type})`,
};
