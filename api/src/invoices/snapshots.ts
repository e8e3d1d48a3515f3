import { ratePercent } from '../shared/tax-text';

/**
 * What an invoice freezes of the parties and of the sale: the seller and buyer as they were at issue, and the lines
 * with every discount named, so that a later change of the school's address, a coupon's code or the buyer's name
 * never rewrites an issued document.
 */

export interface SellerSnapshot {
  /** The legal name (or the school's name when it has none). */
  name: string;
  tradingName: string;
  address: string;
  taxId: string;
  country: string | null;
  email: string | null;
}

export interface BuyerSnapshot {
  name: string;
  email: string;
  company: string;
  address: string;
  country: string | null;
  region: string | null;
  vatId: string;
}

/** A money line (signed: discounts and credit take off) or a note printed under the totals. */
export type InvoiceLine =
  | {
      kind: 'item' | 'discount' | 'credit' | 'refund';
      description: string;
      quantity: number;
      unitAmount: number;
      amount: number;
    }
  | { kind: 'note'; description: string };

export const REVERSE_CHARGE_NOTE = 'Reverse charge: VAT to be accounted for by the recipient (Art. 196 VAT Directive)';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** "Germany" for DE; the code itself for one Intl does not know. */
export function countryName(code: string): string {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The school settings' columns an invoice's seller is made of. */
export const SELLER_COLUMNS = ['name', 'legalName', 'address', 'supportEmail', 'taxCountry', 'taxId'] as const;

export interface SellerRow {
  name: string;
  legalName: string;
  address: string;
  supportEmail: string | null;
  taxCountry: string | null;
  taxId: string;
}

export function sellerFrom(row: SellerRow): SellerSnapshot {
  return {
    name: row.legalName.trim() || row.name,
    tradingName: row.name,
    address: row.address,
    taxId: row.taxId,
    country: row.taxCountry,
    email: row.supportEmail,
  };
}

/**
 * The buyer's address with the ZIP or postal code given at checkout as its last line (after the state or province:
 * "WA 98101"), unless the address written already has it.
 */
function withPostalCode(address: string, region: string | null, postalCode: string | null): string {
  if (!postalCode || address.toUpperCase().includes(postalCode.toUpperCase())) return address;
  const line = region ? `${region} ${postalCode}` : postalCode;
  return address.trim() ? `${address.trimEnd()}\n${line}` : line;
}

/** The payer as an invoice names them: their name (or the name they are shown by) and the billing details given. */
export function buyerOf(
  user: { id: string; name: string | null; email: string },
  billing: {
    company?: string | null;
    address?: string | null;
    country?: string | null;
    region?: string | null;
    postalCode?: string | null;
    vatId?: string | null;
  },
): BuyerSnapshot {
  return {
    // The name the buyer gave, else none: an invoice names a person as they are, never as a placeholder.
    name: user.name?.trim() ?? '',
    email: user.email,
    company: billing.company ?? '',
    address: withPostalCode(billing.address ?? '', billing.region ?? null, billing.postalCode ?? null),
    country: billing.country ?? null,
    region: billing.region ?? null,
    vatId: billing.vatId ?? '',
  };
}

/** What a percentage discount is called on the invoice: which discount, at what rate. */
export function discountLabel(discount: {
  kind: string | null;
  bp: number | null;
  couponCode: string | null;
  quantity: number;
  country: string | null;
}): string {
  const rate = discount.bp ? `, ${ratePercent(discount.bp)}` : '';
  const bare = rate.slice(2);
  switch (discount.kind) {
    case 'coupon':
      return discount.couponCode
        ? `Coupon ${discount.couponCode}${bare ? ` (${bare})` : ''}`
        : `Coupon${bare ? ` (${bare})` : ''}`;
    case 'default-coupon':
      return `Sale${bare ? ` (${bare})` : ''}`;
    case 'team':
      return `Team discount (${discount.quantity} seats${rate})`;
    case 'ppp':
      return `Regional price (${discount.country ? countryName(discount.country) : 'your country'}${rate})`;
    default:
      return 'Discount';
  }
}
