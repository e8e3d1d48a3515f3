import EmailIcon from '@mui/icons-material/Email';
import { OutboxEmailList } from './OutboxEmailList';
import { OutboxEmailShow } from './OutboxEmailShow';
import type { OutboxEmail } from './types';

export default {
  list: OutboxEmailList,
  show: OutboxEmailShow,
  icon: EmailIcon,
  recordRepresentation: (email: OutboxEmail) => email.subject,
  options: { label: 'console.outbox.title' },
};
