import AccountTreeIcon from '@mui/icons-material/AccountTree';
import type { ContentLink } from './types';
import { lazyScreen } from '../common/lazyScreen';

const ContentLinkCreate = lazyScreen(() => import('./ContentLinkEdit'), 'ContentLinkCreate');
const ContentLinkEdit = lazyScreen(() => import('./ContentLinkEdit'), 'ContentLinkEdit');
const ContentLinkList = lazyScreen(() => import('./ContentLinkList'), 'ContentLinkList');
const ContentLinkShow = lazyScreen(() => import('./ContentLinkShow'), 'ContentLinkShow');

export default {
  list: ContentLinkList,
  show: ContentLinkShow,
  edit: ContentLinkEdit,
  create: ContentLinkCreate,
  icon: AccountTreeIcon,
  recordRepresentation: (link: ContentLink) => `Link at position ${link.position}`,
};
