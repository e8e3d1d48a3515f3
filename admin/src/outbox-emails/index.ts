import EmailIcon from '@mui/icons-material/Email';
import type { OutboxEmail } from './types';
import { lazyScreen } from '../common/lazyScreen';

const OutboxEmailList = lazyScreen(() => import('./OutboxEmailList'), 'OutboxEmailList');
const OutboxEmailShow = lazyScreen(() => import('./OutboxEmailShow'), 'OutboxEmailShow');

export default {
  list: OutboxEmailList,
  show: OutboxEmailShow,
  icon: EmailIcon,
  recordRepresentation: (email: OutboxEmail) => email.subject,
  options: { label: 'console.outbox.title' },
};
