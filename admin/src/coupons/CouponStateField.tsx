import { Chip } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { couponState, type Coupon } from './choices';

/** Active, Inactive, Expired or Used up. */
export function CouponStateField(_props: { label?: string; source?: string; sortable?: boolean; sortBy?: string }) {
  const coupon = useRecordContext<Coupon>();
  if (!coupon) return null;
  const look = couponState(coupon);
  return (
    <Chip
      size="small"
      label={look.label}
      color={look.color}
      variant={look.color === 'default' ? 'outlined' : 'filled'}
    />
  );
}
