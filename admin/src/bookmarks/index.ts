import BookmarkIcon from '@mui/icons-material/Bookmark';
import { BookmarkList } from './BookmarkList';
import { BookmarkShow } from './BookmarkShow';

/** Read-only: learners bookmark from the storefront. */
export default {
  list: BookmarkList,
  show: BookmarkShow,
  icon: BookmarkIcon,
  recordRepresentation: (b: { type: string }) => `Bookmark (${b.type})`,
};
