import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import { couponName, type Coupon } from './choices';
import { lazyScreen } from '../common/lazyScreen';

const CouponCreate = lazyScreen(() => import('./CouponCreate'), 'CouponCreate');
const CouponEdit = lazyScreen(() => import('./CouponEdit'), 'CouponEdit');
const CouponList = lazyScreen(() => import('./CouponList'), 'CouponList');
const CouponShow = lazyScreen(() => import('./CouponShow'), 'CouponShow');

export default {
  list: CouponList,
  show: CouponShow,
  edit: CouponEdit,
  create: CouponCreate,
  icon: LocalOfferIcon,
  recordRepresentation: (coupon: Coupon) => couponName(coupon),
};
