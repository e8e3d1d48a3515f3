import type { Knex } from 'knex';
import { taxRefunded } from '../tax/amounts';
import { isEu } from '../tax/places';
import { insertNumbered, numberedAtCommit } from './numbering';
import {
  buyerOf,
  countryName,
  discountLabel,
  REVERSE_CHARGE_NOTE,
  SELLER_COLUMNS,
  sellerFrom,
  type BuyerSnapshot,
  type InvoiceLine,
  type SellerRow,
} from './snapshots';
import { prepared } from '../db/prepared';

/**
 * Issuing invoices and credit notes (docs/domain.md §18): each in the transaction that records its money (a charge's
 * settlement, a refund's total), numbered there so that a rollback gives its number back, and never rewritten.
 */

const TAX_COLUMNS = [
  'taxCountry',
  'taxRegion',
  'taxRateBp',
  'taxName',
  'taxInclusive',
  'taxReverseCharge',
  'taxAmount',
] as const;

interface ChargeFacts {
  id: string;
  amount: number;
  refundAmount: number;
  refundedTax: number;
  currency: string;
  userId: string;
  productId: string;
  productName: string;
  checkoutId: string | null;
  createdAt: Date;
  taxCountry: string | null;
  taxRegion: string | null;
  taxRateBp: number | null;
  taxName: string | null;
  taxInclusive: boolean | null;
  taxReverseCharge: boolean;
  taxAmount: number;
}

interface CheckoutFacts {
  quantity: number;
  unitAmount: number | null;
  creditAmount: number;
  country: string | null;
  couponCode: string | null;
  couponBp: number | null;
  discountKind: string | null;
  discountBp: number | null;
  upgradedFrom: string | null;
  billingCompany: string | null;
  billingAddress: string | null;
  billingCountry: string | null;
  billingRegion: string | null;
  billingPostalCode: string | null;
  billingVatId: string | null;
}

/** A charge (`ch`) beside its product (`pr`). */
const chargeWithProduct = (trx: Knex.Transaction, chargeId: string) =>
  trx('merchantCharges as ch')
    .join('merchantProducts as mp', 'mp.id', 'ch.merchantProductId')
    .join('products as pr', 'pr.id', 'mp.productId')
    .where('ch.id', chargeId);

const chargeColumns = (trx: Knex.Transaction) => [
  'ch.id',
  'ch.amount',
  'ch.refundAmount',
  'ch.refundedTax',
  'ch.currency',
  'ch.userId',
  'ch.createdAt',
  'pr.id as productId',
  'pr.name as productName',
  trx.raw(`ch.metadata->>'checkoutId' as checkout_id`),
  ...TAX_COLUMNS.map((c) => `ch.${c}`),
];

async function chargeFacts(trx: Knex.Transaction, chargeId: string): Promise<ChargeFacts> {
  return chargeWithProduct(trx, chargeId).first(...chargeColumns(trx));
}

const checkoutColumns = (trx: Knex.Transaction) => [
  'co.quantity',
  'price.unitAmount',
  'co.creditAmount',
  'co.country',
  'c.code as couponCode',
  trx.raw('round(c.percentage_discount * 10000)::int as coupon_bp'),
  'co.discountKind',
  'co.discountBp',
  'sp.name as upgradedFrom',
  'co.billingCompany',
  'co.billingAddress',
  'co.billingCountry',
  'co.billingRegion',
  'co.billingPostalCode',
  'co.billingVatId',
];

/** A checkout beside its price, coupon and the product it upgraded from (`co` joined to `source`). */
const withCheckoutJoins = (query: Knex.QueryBuilder) =>
  query
    .leftJoin('prices as price', 'price.id', 'co.priceId')
    .leftJoin('coupons as c', 'c.id', 'co.couponId')
    .leftJoin('purchases as source', 'source.id', 'co.upgradeFromId')
    .leftJoin('products as sp', 'sp.id', 'source.productId');

/** The checkout the charge paid (by its metadata, or the purchase it wrote): null for a charge made elsewhere. */
async function checkoutFacts(trx: Knex.Transaction, charge: ChargeFacts): Promise<CheckoutFacts | null> {
  const query = withCheckoutJoins(trx('checkouts as co')).first(...checkoutColumns(trx));
  const byId = charge.checkoutId && /^[0-9a-f-]{36}$/i.test(charge.checkoutId);
  if (byId) return (await query.clone().where('co.id', charge.checkoutId)) ?? null;
  return (
    (await query.whereIn('co.purchaseId', trx('purchases').where({ merchantChargeId: charge.id }).select('id'))) ?? null
  );
}

/** A percentage (basis points) of a price, rounded half up to the minor unit as pricing and the provider round it. */
const percentOfBp = (amount: number, bp: number) => Math.floor((amount * bp + 5_000) / 10_000);

/**
 * A membership period's or a plan instalment's sale in checkout's terms, so its invoice names what it was billed
 * from (the price for its seats, or the instalment) and its discount (the coupon or sale, the regional price). Only
 * a whole period's charge is so described: one that is not its price less that discount (a switch's or added seats'
 * prorated charge) keeps its one line. Null for another charge.
 */
async function subscriptionPeriodFacts(trx: Knex.Transaction, charge: ChargeFacts): Promise<CheckoutFacts | null> {
  const row = (await trx('merchantCharges as ch')
    .join('subscriptions as s', trx.raw(`s.id::text = ch.metadata->>'subscriptionId'`))
    .leftJoin('prices as price', 'price.id', 's.priceId')
    .leftJoin(
      'paymentPlans as plan',
      trx.raw(`plan.id::text = coalesce(s.payment_plan_id::text, ch.metadata->>'paymentPlanId')`),
    )
    .leftJoin('coupons as c', trx.raw(`c.id::text = ch.metadata->>'couponId'`))
    .where('ch.id', charge.id)
    .first(
      's.quantity',
      's.pppBp',
      's.taxCountry',
      'plan.id as paymentPlanId',
      'plan.instalmentAmount',
      'price.unitAmount',
      'c.code as couponCode',
      'c.default as saleCoupon',
      trx.raw('round(c.percentage_discount * 10000)::int as coupon_bp'),
    )) as
    | {
        quantity: number;
        pppBp: number | null;
        taxCountry: string | null;
        paymentPlanId: string | null;
        instalmentAmount: number | null;
        unitAmount: number | null;
        couponCode: string | null;
        saleCoupon: boolean | null;
        couponBp: number | null;
      }
    | undefined;
  if (!row) return null;
  const quantity = row.paymentPlanId ? 1 : row.quantity;
  const unitAmount = row.paymentPlanId ? row.instalmentAmount : row.unitAmount;
  if (unitAmount === null) return null;
  const full = unitAmount * quantity;
  const regional = row.pppBp ? full - percentOfBp(full, row.pppBp) : full;
  const couponed = row.couponBp ? regional - percentOfBp(regional, row.couponBp) : regional;
  const afterDiscounts = charge.taxInclusive === false ? charge.amount - charge.taxAmount : charge.amount;
  if (afterDiscounts !== couponed) return null;
  const [kind, bp] = row.couponBp
    ? [row.saleCoupon ? 'default-coupon' : 'coupon', row.couponBp]
    : row.pppBp
      ? ['ppp', row.pppBp]
      : [null, null];
  return {
    quantity,
    unitAmount,
    creditAmount: 0,
    country: row.taxCountry,
    couponCode: kind === 'coupon' ? row.couponCode : null,
    couponBp: row.couponBp,
    discountKind: kind,
    discountBp: bp,
    upgradedFrom: null,
    billingCompany: null,
    billingAddress: null,
    billingCountry: null,
    billingRegion: null,
    billingPostalCode: null,
    billingVatId: null,
  };
}

/** The kind of discount a checkout from before discounts were recorded took, from its coupon. */
function inferredKind(checkout: CheckoutFacts): { kind: string | null; bp: number | null } {
  if (checkout.discountKind) return { kind: checkout.discountKind, bp: checkout.discountBp };
  if (checkout.couponBp !== null)
    return { kind: checkout.couponCode ? 'coupon' : 'default-coupon', bp: checkout.couponBp };
  return { kind: null, bp: null };
}

/**
 * The lines and sums of a charge's invoice. What is charged is the total; the tax is inside it or on top of the price
 * after discounts, so the discount is what the list price and the credit leave over (exact, whatever was rounded).
 */
function linesOf(charge: ChargeFacts, checkout: CheckoutFacts | null, buyer: BuyerSnapshot, schoolTaxed: boolean) {
  const total = charge.amount;
  const tax = charge.taxAmount;
  const taxable = total - tax;
  // The price after every discount, in the price's own terms: with the tax when it was included.
  const afterDiscounts = charge.taxInclusive === false ? taxable : total;
  const quantity = checkout?.quantity ?? 1;
  const unitAmount = checkout?.unitAmount ?? afterDiscounts;
  const credit = Math.min(checkout?.creditAmount ?? 0, Math.max(0, unitAmount * quantity - afterDiscounts));
  const subtotal = Math.max(unitAmount * quantity, afterDiscounts + credit);
  const percentage = subtotal - credit - afterDiscounts;
  const description = quantity > 1 ? `${charge.productName} (${quantity} seats)` : charge.productName;
  const lines: InvoiceLine[] = [
    {
      kind: 'item',
      description,
      quantity,
      unitAmount: subtotal === unitAmount * quantity ? unitAmount : subtotal,
      amount: subtotal,
    },
  ];
  if (percentage > 0 && checkout) {
    const { kind, bp } = inferredKind(checkout);
    const label = discountLabel({ kind, bp, couponCode: checkout.couponCode, quantity, country: checkout.country });
    lines.push({ kind: 'discount', description: label, quantity: 1, unitAmount: -percentage, amount: -percentage });
  } else if (percentage > 0) {
    lines.push({
      kind: 'discount',
      description: 'Discount',
      quantity: 1,
      unitAmount: -percentage,
      amount: -percentage,
    });
  }
  if (credit > 0) {
    const from = checkout?.upgradedFrom ? `: ${checkout.upgradedFrom}` : '';
    lines.push({
      kind: 'credit',
      description: `Upgrade credit${from}`,
      quantity: 1,
      unitAmount: -credit,
      amount: -credit,
    });
  }
  if (charge.taxReverseCharge) lines.push({ kind: 'note', description: REVERSE_CHARGE_NOTE });
  else if (charge.taxCountry === null && schoolTaxed && buyer.country) {
    lines.push({ kind: 'note', description: `Not subject to VAT in ${countryName(buyer.country)}` });
  }
  return { lines, subtotal, discount: percentage + credit, taxable, total };
}

const taxColumnsOf = (charge: ChargeFacts) => Object.fromEntries(TAX_COLUMNS.map((c) => [c, charge[c]]));

export type TaxScheme = 'domestic' | 'eu-oss' | 'reverse-charge' | 'registration' | 'not-taxed';

/**
 * Where a sale's tax is declared, from the school's registrations when it is invoiced: its home return, the EU
 * One-Stop Shop, the buyer's (reverse charge), another registration's return (GB, a US state), or nowhere.
 */
function taxSchemeOf(charge: ChargeFacts, school: { taxCountry: string | null; taxEuOss: boolean }): TaxScheme {
  if (charge.taxReverseCharge) return 'reverse-charge';
  if (charge.taxCountry === null) return 'not-taxed';
  if (charge.taxCountry === school.taxCountry) return 'domestic';
  if (isEu(charge.taxCountry) && school.taxEuOss) return 'eu-oss';
  return 'registration';
}

type Payer = { id: string; name: string | null; email: string };
type Profile = Partial<Record<'company' | 'address' | 'country' | 'region' | 'postalCode' | 'vatId', string | null>>;

/** An invoice's row from what it is made of: the seller, the buyer and the lines frozen as they are now. */
function invoiceDocument(facts: {
  charge: ChargeFacts;
  checkout: CheckoutFacts | null;
  payer: Payer;
  /** The payer's billing profile, used when the checkout recorded no billing country. */
  profile: Profile | null;
  school: SellerRow & { taxEuOss: boolean };
  purchaseId: string | null;
}) {
  const { charge, checkout, payer, school } = facts;
  const profile = checkout?.billingCountry ? null : facts.profile;
  const buyer = buyerOf(payer, {
    company: checkout?.billingCompany ?? profile?.company,
    address: checkout?.billingAddress ?? profile?.address,
    country: checkout?.billingCountry ?? profile?.country ?? checkout?.country,
    region: checkout?.billingRegion ?? profile?.region,
    postalCode: checkout?.billingPostalCode ?? profile?.postalCode,
    vatId: checkout?.billingVatId ?? profile?.vatId,
  });
  const seller = sellerFrom(school);
  const sums = linesOf(charge, checkout, buyer, seller.country !== null);
  return {
    merchantChargeId: charge.id,
    purchaseId: facts.purchaseId,
    payerUserId: payer.id,
    // The sale's date is the date of supply, also for an invoice issued later for an earlier charge.
    suppliedAt: charge.createdAt,
    taxScheme: taxSchemeOf(charge, school),
    seller: JSON.stringify(seller),
    buyer: JSON.stringify(buyer),
    lines: JSON.stringify(sums.lines),
    subtotal: sums.subtotal,
    discount: sums.discount,
    taxable: sums.taxable,
    total: sums.total,
    currency: charge.currency,
    ...taxColumnsOf(charge),
  };
}

const SCHOOL_COLUMNS = [...SELLER_COLUMNS, 'taxEuOss'] as const;

/**
 * The buyer a membership period's charge names: the billing details given when subscribing, at the place its tax
 * followed (so a reverse-charged period names the VAT ID of the buyer's country, as a purchase's invoice does). None
 * for another charge, or a subscription from before its tax place was kept (the payer's billing profile then).
 */
async function subscriptionBuyer(trx: Knex.Transaction, chargeId: string): Promise<Profile | null> {
  const row = await trx('merchantCharges as ch')
    .join('subscriptions as s', trx.raw(`s.id::text = ch.metadata->>'subscriptionId'`))
    .where('ch.id', chargeId)
    .whereNotNull('s.taxCountry')
    .first(
      's.billingCompany as company',
      's.billingAddress as address',
      's.taxCountry as country',
      's.taxRegion as region',
      's.billingPostalCode as postalCode',
      's.taxVatId as vatId',
    );
  return row ?? null;
}

/**
 * A charge's invoice, issued once (a second call finds it): the payer is the charge's user unless `payerUserId` says
 * who paid (a charge from before payers were kept); the seller, the buyer and the lines are frozen as they are.
 * Everything is read first and the numbered insert is its last statement.
 */
export async function issueInvoice(
  trx: Knex.Transaction,
  chargeId: string,
  { payerUserId }: { payerUserId?: string } = {},
): Promise<{ id: string; number: string }> {
  const existing = await trx('invoices')
    .where({ merchantChargeId: chargeId, kind: 'invoice' })
    .orderBy('issuedAt', 'asc')
    .first('id', 'number');
  if (existing) return existing;
  const charge = await chargeFacts(trx, chargeId);
  const payer = payerUserId ?? charge.userId;
  const checkout = (await checkoutFacts(trx, charge)) ?? (await subscriptionPeriodFacts(trx, charge));
  const user = await trx('users').where({ id: payer }).first('id', 'name', 'email');
  const profile = checkout?.billingCountry
    ? null
    : ((await subscriptionBuyer(trx, chargeId)) ?? (await trx('billingProfiles').where({ userId: payer }).first()));
  const school = await trx('schoolSettings').first(...SCHOOL_COLUMNS);
  const purchase = await trx('purchases').where({ merchantChargeId: chargeId }).orderBy('createdAt').first('id');
  const document = invoiceDocument({
    charge,
    checkout,
    payer: user,
    profile,
    school,
    purchaseId: purchase?.id ?? null,
  });
  return insertNumbered(trx, 'invoice', document);
}

/**
 * The invoice of a charge its settlement just recorded (none exists yet), read in one statement and written by the
 * insert this hands back, for the settlement to send with its other writes: `invoiceId` is the id its receipt already
 * links to, `purchaseId` the purchase it writes (by then), `checkoutId` the checkout it settles. The invoice is
 * numbered as the settlement commits.
 */
export async function settlementInvoice(
  trx: Knex.Transaction,
  chargeId: string,
  ids: { invoiceId: string; purchaseId: string; checkoutId: string },
): Promise<{ insert: Knex.QueryBuilder }> {
  const [invoice] = await settlementInvoices(trx, [{ chargeId, ...ids }]);
  return invoice!;
}

/** `settlementInvoice` for several charges (a batch of settlements), read in one statement; in the order asked. */
export async function settlementInvoices(
  trx: Knex.Transaction,
  asked: { chargeId: string; invoiceId: string; purchaseId: string; checkoutId: string }[],
): Promise<{ insert: Knex.QueryBuilder; row: Record<string, unknown> }[]> {
  if (asked.length === 0) return [];
  const prefixed = (prefix: string, columns: readonly string[]) =>
    columns.map((c) => `${prefix}.${c} as ${prefix}_${c}`);
  // Arrays, not a VALUES list: the statement's text (and so its plan) is the same however many are asked.
  const unnested = trx.raw('unnest(?::int[], ?::uuid[], ?::uuid[])', [
    asked.map((_, n) => n),
    asked.map((a) => a.chargeId),
    asked.map((a) => a.checkoutId),
  ]);
  const rows = await withCheckoutJoins(
    trx('merchantCharges as ch')
      .join('merchantProducts as mp', 'mp.id', 'ch.merchantProductId')
      .join('products as pr', 'pr.id', 'mp.productId')
      .joinRaw('JOIN ? AS asked (n, charge_id, checkout_id) ON asked.charge_id = ch.id', [unnested])
      .leftJoin('checkouts as co', 'co.id', 'asked.checkoutId'),
  )
    .join('users as u', 'u.id', 'ch.userId')
    .leftJoin('billingProfiles as bp', 'bp.userId', 'ch.userId')
    .joinRaw('CROSS JOIN LATERAL (SELECT * FROM school_settings LIMIT 1) AS s')
    .select(
      'asked.n as askedIndex',
      ...chargeColumns(trx),
      trx.raw('co.id IS NOT NULL AS has_checkout'),
      ...checkoutColumns(trx),
      'u.name as payerName',
      'u.email as payerEmail',
      trx.raw('bp.user_id IS NOT NULL AS has_profile'),
      ...prefixed('bp', ['company', 'address', 'country', 'region', 'postalCode', 'vatId']),
      ...prefixed('s', SCHOOL_COLUMNS),
    )
    // A dozen joins cost milliseconds to plan: planned once per connection, the same text for any batch.
    .options(prepared(trx, 'settlement-invoices'));
  const invoices: { insert: Knex.QueryBuilder; row: Record<string, unknown> }[] = [];
  for (const row of rows) {
    const { invoiceId, purchaseId } = asked[row.askedIndex]!;
    const pick = (prefix: string, columns: readonly string[]) =>
      Object.fromEntries(columns.map((c) => [c, row[`${prefix}${c[0]!.toUpperCase()}${c.slice(1)}`]]));
    const document = invoiceDocument({
      charge: row as ChargeFacts,
      checkout: row.hasCheckout ? (row as CheckoutFacts) : null,
      payer: { id: row.userId, name: row.payerName, email: row.payerEmail },
      profile: row.hasProfile ? pick('bp', ['company', 'address', 'country', 'region', 'postalCode', 'vatId']) : null,
      school: pick('s', SCHOOL_COLUMNS) as SellerRow & { taxEuOss: boolean },
      purchaseId,
    });
    // Wrapped: a query builder handed back by an async function would run as the promise resolves.
    invoices[row.askedIndex] = {
      insert: numberedAtCommit(trx, 'invoice', { ...document, id: invoiceId }),
      row: { ...document, id: invoiceId, kind: 'invoice' },
    };
  }
  return invoices;
}

/** A charge's invoice as it stands: the last correction of it (or the original, never corrected). */
export function latestInvoiceOf(conn: Knex | Knex.Transaction, chargeId: string) {
  return conn('invoices as i')
    .where({ 'i.merchantChargeId': chargeId, 'i.kind': 'invoice' })
    .whereNotExists(conn('invoices as c').whereRaw('c.corrects_id = i.id').select(conn.raw('1')))
    .first('i.*');
}

/**
 * The credit note for a refund that brought the charge's refunded total to `refundedTo`: the increment, its tax as
 * the running-total proportion gives it (so the notes of a charge add up to its refunded tax exactly), and the
 * parties as on the charge's latest invoice. One per total (a second call finds it); none without an invoice.
 */
export async function issueCreditNote(
  trx: Knex.Transaction,
  chargeId: string,
  refundedTo: number,
  /** The refund's date, when it was made before its credit note is issued (an earlier charge's); else today. */
  { suppliedAt }: { suppliedAt?: Date } = {},
): Promise<{ id: string; number: string } | null> {
  const existing = await trx('invoices')
    .where({ merchantChargeId: chargeId, kind: 'credit-note', refundedTo })
    .first('id', 'number');
  if (existing) return existing;
  const invoice = await latestInvoiceOf(trx, chargeId);
  if (!invoice) return null;
  const charge = await chargeFacts(trx, chargeId);
  const before = ((await trx('invoices')
    .where({ merchantChargeId: chargeId, kind: 'credit-note' })
    .where('refundedTo', '<', refundedTo)
    .max({ to: 'refundedTo' })
    .first()) ?? { to: 0 }) as { to: number | null };
  const from = before.to ?? 0;
  const amount = refundedTo - from;
  if (amount <= 0) return null;
  const tax =
    taxRefunded(refundedTo, charge.amount, charge.taxAmount) - taxRefunded(from, charge.amount, charge.taxAmount);
  const lines: InvoiceLine[] = [
    {
      kind: 'refund',
      description: `Refund of ${charge.productName} (invoice ${invoice.number})`,
      quantity: 1,
      unitAmount: amount,
      amount,
    },
  ];
  return insertNumbered(trx, 'credit-note', {
    merchantChargeId: chargeId,
    purchaseId: invoice.purchaseId,
    payerUserId: invoice.payerUserId,
    invoiceId: invoice.id,
    refundedTo,
    suppliedAt: suppliedAt ?? trx.fn.now(),
    taxScheme: invoice.taxScheme,
    seller: JSON.stringify(invoice.seller),
    buyer: JSON.stringify(invoice.buyer),
    lines: JSON.stringify(lines),
    subtotal: amount,
    discount: 0,
    taxable: amount - tax,
    total: amount,
    currency: invoice.currency,
    ...taxColumnsOf(charge),
    taxAmount: tax,
  });
}

/**
 * A corrected invoice: the latest one's sums, tax and lines with the buyer's details replaced, under a new number
 * that `corrects` it; the original stays as issued.
 */
export async function issueCorrection(
  trx: Knex.Transaction,
  latest: { id: string; [column: string]: unknown },
  buyer: BuyerSnapshot,
): Promise<{ id: string; number: string }> {
  const keep = [
    'merchantChargeId',
    'purchaseId',
    'payerUserId',
    'seller',
    'lines',
    'subtotal',
    'discount',
    'taxable',
    'total',
    'currency',
    'suppliedAt',
    'taxScheme',
    ...TAX_COLUMNS,
  ] as const;
  const copied = Object.fromEntries(keep.map((c) => [c, latest[c]]));
  return insertNumbered(trx, 'invoice', {
    ...copied,
    seller: JSON.stringify(latest.seller),
    lines: JSON.stringify(latest.lines),
    buyer: JSON.stringify(buyer),
    correctsId: latest.id,
  });
}
