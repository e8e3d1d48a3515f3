import ForumIcon from '@mui/icons-material/Forum';
import { CommentList } from './CommentList';
import { CommentShow } from './CommentShow';
import type { Comment } from './types';

/** No edit screens: learners write comments; support and admins hide them or show them again (Moderation.tsx). */
export default {
  list: CommentList,
  show: CommentShow,
  icon: ForumIcon,
  recordRepresentation: (c: Comment) => (c.text.length > 40 ? `${c.text.slice(0, 40)}…` : c.text),
};
