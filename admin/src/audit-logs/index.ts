import HistoryIcon from '@mui/icons-material/History';
import { AuditLogList } from './AuditLogList';
import { AuditLogShow } from './AuditLogShow';
import type { AuditLog } from './choices';

export default {
  list: AuditLogList,
  show: AuditLogShow,
  icon: HistoryIcon,
  recordRepresentation: (entry: AuditLog) => `#${entry.id} ${entry.action} ${entry.resource}`,
};
