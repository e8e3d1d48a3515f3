import Inventory2Icon from '@mui/icons-material/Inventory2';
import { lazyScreen } from '../common/lazyScreen';

const ProductCreate = lazyScreen(() => import('./ProductCreate'), 'ProductCreate');
const ProductEdit = lazyScreen(() => import('./ProductEdit'), 'ProductEdit');
const ProductList = lazyScreen(() => import('./ProductList'), 'ProductList');
const ProductShow = lazyScreen(() => import('./ProductShow'), 'ProductShow');

export default {
  list: ProductList,
  show: ProductShow,
  edit: ProductEdit,
  create: ProductCreate,
  icon: Inventory2Icon,
  recordRepresentation: 'name',
};
