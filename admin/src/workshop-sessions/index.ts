import EventIcon from '@mui/icons-material/Event';
import { lazyScreen } from '../common/lazyScreen';
import type { WorkshopSession } from './choices';

const SessionList = lazyScreen(() => import('./SessionList'), 'SessionList');
const SessionShow = lazyScreen(() => import('./SessionShow'), 'SessionShow');
const SessionEdit = lazyScreen(() => import('./SessionEdit'), 'SessionEdit');
const SessionCreate = lazyScreen(() => import('./SessionCreate'), 'SessionCreate');

export default {
  list: SessionList,
  show: SessionShow,
  edit: SessionEdit,
  create: SessionCreate,
  icon: EventIcon,
  recordRepresentation: (session: WorkshopSession) => session.title,
};
