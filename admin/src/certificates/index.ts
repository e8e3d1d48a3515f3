import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium';
import type { Certificate } from './types';
import { lazyScreen } from '../common/lazyScreen';

const CertificateList = lazyScreen(() => import('./CertificateList'), 'CertificateList');
const CertificateShow = lazyScreen(() => import('./CertificateShow'), 'CertificateShow');

/** No edit screens: certificates are issued when a learner finishes a course; support revokes one (Revoke.tsx). */
export default {
  list: CertificateList,
  show: CertificateShow,
  icon: WorkspacePremiumIcon,
  recordRepresentation: (c: Certificate) => `${c.learnerName}: ${c.courseTitle}`,
};
