import ForumIcon from '@mui/icons-material/Forum';
import type { Comment } from './types';
import { lazyScreen } from '../common/lazyScreen';

const CommentList = lazyScreen(() => import('./CommentList'), 'CommentList');
const CommentShow = lazyScreen(() => import('./CommentShow'), 'CommentShow');

/** No edit screens: learners write comments; support and admins hide them or show them again (Moderation.tsx). */
export default {
  list: CommentList,
  show: CommentShow,
  icon: ForumIcon,
  recordRepresentation: (c: Comment) => (c.text.length > 40 ? `${c.text.slice(0, 40)}…` : c.text),
};
