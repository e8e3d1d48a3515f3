import PeopleIcon from '@mui/icons-material/People';
import type { User } from './types';
import { UserEdit } from './UserEdit';
import { UserList } from './UserList';
import { UserShow } from './UserShow';

export default {
  list: UserList,
  show: UserShow,
  edit: UserEdit,
  icon: PeopleIcon,
  recordRepresentation: (user: User) => user.name || user.email,
};
