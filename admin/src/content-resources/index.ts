import MenuBookIcon from '@mui/icons-material/MenuBook';
import type { ContentResource } from './types';
import { lazyScreen } from '../common/lazyScreen';

const ContentResourceCreate = lazyScreen(() => import('./ContentResourceCreate'), 'ContentResourceCreate');
const ContentResourceEdit = lazyScreen(() => import('./ContentResourceEdit'), 'ContentResourceEdit');
const ContentResourceList = lazyScreen(() => import('./ContentResourceList'), 'ContentResourceList');
const ContentResourceShow = lazyScreen(() => import('./ContentResourceShow'), 'ContentResourceShow');

export default {
  list: ContentResourceList,
  show: ContentResourceShow,
  edit: ContentResourceEdit,
  create: ContentResourceCreate,
  icon: MenuBookIcon,
  recordRepresentation: (resource: ContentResource) => resource.fields?.title || resource.id,
};
