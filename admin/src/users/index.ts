import PeopleIcon from '@mui/icons-material/People';
import type { User } from './types';
import { lazyScreen } from '../common/lazyScreen';

const UserEdit = lazyScreen(() => import('./UserEdit'), 'UserEdit');
const UserList = lazyScreen(() => import('./UserList'), 'UserList');
const UserShow = lazyScreen(() => import('./UserShow'), 'UserShow');

export default {
  list: UserList,
  show: UserShow,
  edit: UserEdit,
  icon: PeopleIcon,
  recordRepresentation: (user: User) => user.name || user.email,
};
