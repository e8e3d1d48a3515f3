import {
  merchantAccounts,
  merchantCoupons,
  merchantCustomers,
  merchantPrices,
  merchantProducts,
  merchantSessions,
} from './catalog';
import type { MerchantResource } from './entries';
import { merchantCharges, merchantDisputes, merchantRefunds } from './payments';
import { merchantScreens } from './screens';

/** Each provider resource's screens, built from its definition (columns, show fields, filters). */
export const SCREENS_BY_RESOURCE: Record<MerchantResource, ReturnType<typeof merchantScreens>> = {
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
