import CardGiftcardIcon from '@mui/icons-material/CardGiftcard';
import { lazyScreen } from '../common/lazyScreen';

const ProductContentCreate = lazyScreen(() => import('./ProductContentEdit'), 'ProductContentCreate');
const ProductContentEdit = lazyScreen(() => import('./ProductContentEdit'), 'ProductContentEdit');
const ProductContentList = lazyScreen(() => import('./ProductContentList'), 'ProductContentList');
const ProductContentShow = lazyScreen(() => import('./ProductContentShow'), 'ProductContentShow');

export default {
  list: ProductContentList,
  show: ProductContentShow,
  edit: ProductContentEdit,
  create: ProductContentCreate,
  icon: CardGiftcardIcon,
  recordRepresentation: (grant: { position: number }) => `Grant at position ${grant.position}`,
};
