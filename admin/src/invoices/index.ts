import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { lazyScreen } from '../common/lazyScreen';
import type { InvoiceRecord } from './InvoiceScreens';

const InvoiceList = lazyScreen(() => import('./InvoiceScreens'), 'InvoiceList');
const InvoiceShow = lazyScreen(() => import('./InvoiceScreens'), 'InvoiceShow');

export default {
  list: InvoiceList,
  show: InvoiceShow,
  icon: ReceiptLongIcon,
  recordRepresentation: (i: InvoiceRecord) => i.number,
};
