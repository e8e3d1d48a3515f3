import AccountTreeIcon from '@mui/icons-material/AccountTree';
import { ContentLinkCreate, ContentLinkEdit } from './ContentLinkEdit';
import { ContentLinkList } from './ContentLinkList';
import { ContentLinkShow } from './ContentLinkShow';
import type { ContentLink } from './types';

export default {
  list: ContentLinkList,
  show: ContentLinkShow,
  edit: ContentLinkEdit,
  create: ContentLinkCreate,
  icon: AccountTreeIcon,
  recordRepresentation: (link: ContentLink) => `Link at position ${link.position}`,
};
