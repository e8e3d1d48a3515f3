import CardGiftcardIcon from '@mui/icons-material/CardGiftcard';
import { ProductContentCreate, ProductContentEdit } from './ProductContentEdit';
import { ProductContentList } from './ProductContentList';
import { ProductContentShow } from './ProductContentShow';

export default {
  list: ProductContentList,
  show: ProductContentShow,
  edit: ProductContentEdit,
  create: ProductContentCreate,
  icon: CardGiftcardIcon,
  recordRepresentation: (grant: { position: number }) => `Grant at position ${grant.position}`,
};
