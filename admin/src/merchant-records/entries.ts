import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import ContactPageIcon from '@mui/icons-material/ContactPage';
import CurrencyExchangeIcon from '@mui/icons-material/CurrencyExchange';
import DiscountIcon from '@mui/icons-material/Discount';
import GavelIcon from '@mui/icons-material/Gavel';
import PriceChangeIcon from '@mui/icons-material/PriceChange';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import ShoppingBagIcon from '@mui/icons-material/ShoppingBag';
import ShoppingCartCheckoutIcon from '@mui/icons-material/ShoppingCartCheckout';
import type { ComponentType } from 'react';
import { formatMoney } from '../common/money';
import type { MerchantCharge } from './payments';

/** What the console knows of a provider resource before its screens load: the menu's icon and how a record is named. */
export interface MerchantEntry {
  icon: ComponentType;
  /** Staff may change a mirror's status (the edit screen); refunds and disputes are the provider's alone. */
  editable: boolean;
  recordRepresentation?: string | ((record: never) => string);
}

/** The Payments section's resources; their screens (catalog.tsx, payments.tsx) load when one is opened. */
export const MERCHANT_ENTRIES = {
  'merchant-charges': {
    icon: ReceiptLongIcon,
    editable: true,
    recordRepresentation: (c: MerchantCharge) => `${formatMoney(c.amount, c.currency)} · ${c.identifier}`,
  },
  'merchant-refunds': { icon: CurrencyExchangeIcon, editable: false },
  'merchant-disputes': { icon: GavelIcon, editable: false },
  'merchant-customers': { icon: ContactPageIcon, editable: true },
  'merchant-sessions': { icon: ShoppingCartCheckoutIcon, editable: true },
  'merchant-products': { icon: ShoppingBagIcon, editable: true },
  'merchant-prices': { icon: PriceChangeIcon, editable: true },
  'merchant-coupons': { icon: DiscountIcon, editable: true },
  'merchant-accounts': {
    icon: AccountBalanceIcon,
    editable: true,
    recordRepresentation: (a: { label: string }) => a.label,
  },
} as const satisfies Record<string, MerchantEntry>;

export type MerchantResource = keyof typeof MERCHANT_ENTRIES;
