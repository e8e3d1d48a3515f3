import HistoryIcon from '@mui/icons-material/History';
import type { AuditLog } from './choices';
import { lazyScreen } from '../common/lazyScreen';

const AuditLogList = lazyScreen(() => import('./AuditLogList'), 'AuditLogList');
const AuditLogShow = lazyScreen(() => import('./AuditLogShow'), 'AuditLogShow');

export default {
  list: AuditLogList,
  show: AuditLogShow,
  icon: HistoryIcon,
  recordRepresentation: (entry: AuditLog) => `#${entry.id} ${entry.action} ${entry.resource}`,
};
