import {
  merchantAccounts,
  merchantCoupons,
  merchantCustomers,
  merchantPrices,
  merchantProducts,
  merchantSessions,
} from './catalog';
import { merchantCharges, merchantDisputes, merchantRefunds } from './payments';
import { merchantScreens } from './screens';

/**
 * The Payments section: the payment provider's records, read-only but for a mirror's status. Each resource is a
 * definition (columns, show fields, filters) in catalog.tsx or payments.tsx; the screens are built from it.
 */
export const MERCHANT_SCREENS = {
  'merchant-charges': merchantScreens('merchant-charges', merchantCharges),
  'merchant-refunds': merchantScreens('merchant-refunds', merchantRefunds),
  'merchant-disputes': merchantScreens('merchant-disputes', merchantDisputes),
  'merchant-customers': merchantScreens('merchant-customers', merchantCustomers),
  'merchant-sessions': merchantScreens('merchant-sessions', merchantSessions),
  'merchant-products': merchantScreens('merchant-products', merchantProducts),
  'merchant-prices': merchantScreens('merchant-prices', merchantPrices),
  'merchant-coupons': merchantScreens('merchant-coupons', merchantCoupons),
  'merchant-accounts': merchantScreens('merchant-accounts', merchantAccounts),
};

export { ChargeHistoryRows } from './payments';
