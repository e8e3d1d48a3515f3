import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium';
import { CertificateList } from './CertificateList';
import { CertificateShow } from './CertificateShow';
import type { Certificate } from './types';

/** No edit screens: certificates are issued when a learner finishes a course; support revokes one (Revoke.tsx). */
export default {
  list: CertificateList,
  show: CertificateShow,
  icon: WorkspacePremiumIcon,
  recordRepresentation: (c: Certificate) => `${c.learnerName}: ${c.courseTitle}`,
};
