import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import { couponName, type Coupon } from './choices';
import { CouponCreate } from './CouponCreate';
import { CouponEdit } from './CouponEdit';
import { CouponList } from './CouponList';
import { CouponShow } from './CouponShow';

export default {
  list: CouponList,
  show: CouponShow,
  edit: CouponEdit,
  create: CouponCreate,
  icon: LocalOfferIcon,
  recordRepresentation: (coupon: Coupon) => couponName(coupon),
};
