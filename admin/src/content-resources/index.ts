import MenuBookIcon from '@mui/icons-material/MenuBook';
import { ContentResourceCreate } from './ContentResourceCreate';
import { ContentResourceEdit } from './ContentResourceEdit';
import { ContentResourceList } from './ContentResourceList';
import { ContentResourceShow } from './ContentResourceShow';
import type { ContentResource } from './types';

export default {
  list: ContentResourceList,
  show: ContentResourceShow,
  edit: ContentResourceEdit,
  create: ContentResourceCreate,
  icon: MenuBookIcon,
  recordRepresentation: (resource: ContentResource) => resource.fields?.title || resource.id,
};
