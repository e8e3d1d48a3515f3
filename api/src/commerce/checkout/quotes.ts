import type { ReadCaches } from '../../cache/read-cache';
import type { Clock } from '../../clock';
import type { Db } from '../../db/connection';
import type { ModelObject } from 'objection';
import type { Price, Product } from '../../catalog/models';
import { AppError } from '../../shared/errors';
import type { User } from '../../identity/models';
import { UNRESTRICTED_STATUSES } from '../../shared/purchase-status';
import { asOffer, quoteCoupons } from '../coupons/coupons';
import { COUPON_MESSAGES, couponProblem, problemFor } from '../coupons/rules';
import type { CommerceLimits } from './limits';
import { GRANTING_STATUSES, type Purchase } from '../models';
import { holdingOf } from '../purchases/ownership';
import { pppForCountry } from '../pricing/ppp';
import { quote, TEAM_TIERS } from '../pricing/prices';
import type { QuoteBilling, QuotePreview, QuoteTax } from '../schemas';
import { seatsBoughtBy } from '../teams/seats';
import type { TaxSetupReader } from '../../tax/engine';
import { taxPlace } from '../../tax/rules';
import { chargedTotal, type TaxAnswer, type TaxCalculator } from '../../tax/types';
import { vatIdProblem } from '../../tax/vat-ids';
import { BILLING_MESSAGES, postalCodeFormatMessage, type BillingPlace } from './billing-place';
import { mustBePaidInFull } from '../payment-plans/plans';

export interface QuoteRequest {
  productId: string;
  quantity: number;
  /** "For my team": seats to give away, even when quantity is 1. */
  forTeam: boolean;
  couponCode?: string;
  country: string | null;
  pppRequested: boolean;
  upgradeFromId?: string;
  buyer: User | null;
  /** Where the buyer is billed (tax follows it); absent: the country above, no region, no VAT ID. */
  billing?: BillingPlace;
}

/** The product page's quote: also who asks from where, since codes tried are counted per client address. */
export interface PreviewRequest extends QuoteRequest {
  ip: string | null;
}

const OTHER_CURRENCY_MESSAGE =
  'Your earlier purchase was paid in another currency, so it gives no credit toward this price.';

interface OnSale {
  product: ModelObject<Product>;
  price: ModelObject<Price>;
}

type PurchaseRow = ModelObject<Purchase>;

/** A quote for checkout: the preview, and the tax as its calculator answered it (Stripe Tax's calculation id, say). */
export type CheckoutQuote = QuotePreview & { taxAnswer: TaxAnswer | null };

/**
 * Gathers what pricing needs (price, coupons, the buyer's purchases) and prices one prospective purchase: `quote`
 * for checkout, from what the database holds now; `preview` for the product page, whose product and price may come
 * from the read cache (coupons and the buyer's purchases are always read fresh). A preview naming a coupon code is
 * refused once the caller's network has tried too many codes, whether this one applies or not (`couponLookup`). Whoever is not signed in hears one answer for every coupon problem
 * (`coupon-not-valid`), found by the same queries whatever the problem is.
 */
export function quoteService({
  db,
  clock,
  caches,
  limits,
  tax,
  taxSetup,
}: {
  db: Db;
  clock: Clock;
  caches: ReadCaches;
  limits: Pick<CommerceLimits, 'couponLookup' | 'taxCalculation'>;
  tax: TaxCalculator;
  taxSetup: Pick<TaxSetupReader, 'read'>;
}) {
  async function onSale(productId: string): Promise<OnSale | null> {
    // Both by the product's id, side by side: one round trip.
    const [product, price]: [OnSale['product'] | undefined, OnSale['price'] | undefined] = await Promise.all([
      db('products').where({ id: productId, status: 'active' }).first(),
      db('prices').where({ productId, status: 'active' }).first(),
    ]);
    return product && price ? { product, price } : null;
  }
  const onSaleCached = caches.cached(onSale);

  /**
   * What the buyer paid for a purchase, net of refunds: the upgrade credit it earns, in the price's own terms (tax
   * added on top of a price was never part of it, so it earns no credit).
   */
  async function paidNetOfRefunds(purchase: PurchaseRow): Promise<number> {
    if (!purchase.merchantChargeId) return purchase.totalAmount;
    const charge = await db('merchantCharges')
      .where({ id: purchase.merchantChargeId })
      .first('amount', 'refundAmount', 'taxAmount', 'refundedTax', 'taxInclusive');
    if (!charge) return purchase.totalAmount;
    const taxOnTop = charge.taxInclusive === false;
    const paid = taxOnTop ? charge.amount - charge.taxAmount : charge.amount;
    const refunded = taxOnTop ? charge.refundAmount - charge.refundedTax : charge.refundAmount;
    return Math.max(0, Math.min(purchase.totalAmount, paid - refunded));
  }

  /**
   * The tax on the price after every discount, for the buyer's billing place (nothing on a free quote): a VAT ID whose
   * format does not fit the country is priced as a consumer; a US or Canadian buyer without the region the tax depends
   * on, or naming one that is not their country's, and one whose tax needs the ZIP or postal code (Stripe Tax's in the
   * US) or wrote it as their country does not, gets no tax yet and is asked for it. `ip`: the public quote's caller,
   * whose calculations that cost a call to Stripe are counted.
   */
  async function taxOf(
    amount: number,
    currency: string,
    place: BillingPlace,
    reference: string,
    ip: string | null | undefined,
  ): Promise<{ tax: QuoteTax | null; answer: TaxAnswer | null; billing: QuoteBilling }> {
    const problem = place.vatId && place.country ? vatIdProblem(place.vatId, place.country) : null;
    const billing: QuoteBilling = {
      country: place.country,
      region: place.region,
      postalCode: place.postalCode,
      vatId: place.vatId,
      vatIdProblem: problem,
      regionRequired: false,
      postalCodeRequired: false,
      message: problem ? BILLING_MESSAGES[problem] : null,
    };
    const untaxed = (asked: Partial<QuoteBilling>, message: string) => ({
      tax: null,
      answer: null,
      billing: { ...billing, ...asked, message: billing.message ?? message },
    });
    if (place.problem === 'region-unknown')
      return untaxed({ regionRequired: true }, BILLING_MESSAGES['region-unknown']);
    if (place.problem === 'postal-code-format')
      return untaxed({ postalCodeRequired: true }, postalCodeFormatMessage(place.country));
    if (amount === 0 || !place.country) return { tax: null, answer: null, billing };
    const buyer = {
      country: place.country,
      region: place.region,
      vatId: problem ? null : place.vatId,
      postalCode: place.postalCode,
    };
    // Read once for both questions: with the read caches off each read is a trip to the database.
    const setup = await taxSetup.read();
    const where = taxPlace(setup.seller, buyer);
    if (where.kind === 'none' && where.reason === 'region-needed')
      return untaxed({ regionRequired: true }, BILLING_MESSAGES['region-required']);
    const inclusive = setup.inclusiveCurrencies.includes(currency.toLowerCase());
    const beforeAsking = ip === undefined ? undefined : () => limits.taxCalculation(ip);
    let answer: TaxAnswer | null;
    try {
      answer = await tax.calculate({ currency, amount, inclusive, buyer, reference }, { beforeAsking, setup });
    } catch (error) {
      // The calculator cannot place the buyer without more of their address (Stripe Tax: a US ZIP code).
      if (error instanceof AppError && error.code === 'billing-postal-code-required')
        return untaxed({ postalCodeRequired: true }, error.message);
      if (error instanceof AppError && error.code === 'billing-region-required')
        return untaxed({ regionRequired: true }, error.message);
      throw error;
    }
    if (!answer) return { tax: null, answer: null, billing };
    const { country, region, rate, reverseCharge, name } = answer;
    const quoted = { country, region, rate, amount: answer.amount, inclusive: answer.inclusive, reverseCharge, name };
    return { tax: quoted, answer, billing };
  }

  /**
   * The owned purchase that gives the most credit toward this product: an upgradable one, or this product bought
   * regionally. Only a purchase paid in the price's currency earns credit: ¥4,000 is not $40.00, and no rate is
   * applied, so one paid in another currency is named in `otherCurrency` (the quote says why it gives nothing) and
   * refused when asked for by id.
   */
  async function upgradeSource(
    buyer: User,
    productId: string,
    currency: string,
    requestedId?: string,
  ): Promise<{ best: { purchase: PurchaseRow; credit: number } | null; otherCurrency: PurchaseRow | null }> {
    const candidates: PurchaseRow[] = await db('purchases')
      .where({ userId: buyer.id })
      .whereIn('status', GRANTING_STATUSES)
      .whereNull('bulkCouponId')
      .whereNull('redeemedBulkCouponId') // a team seat was not paid for: it earns no upgrade
      .where((q) =>
        q
          .whereIn(
            'productId',
            db('upgradableProducts').select('upgradableFromId').where({ upgradableToId: productId }),
          )
          .orWhere((same) => same.where({ productId, status: 'Restricted' })),
      )
      .whereNotExists(db('purchases as later').where('later.upgradedFromId', db.ref('purchases.id')))
      .select('purchases.*');
    const asked = requestedId ? candidates.filter((p) => p.id === requestedId) : candidates;
    if (requestedId && !asked.length)
      throw new AppError('upgrade-not-available', 'That purchase cannot be upgraded to this course.');
    // A course still being paid in instalments earns no credit until paid in full (docs/domain.md §23).
    if (requestedId) asked.forEach(mustBePaidInFull);
    const usable = asked.filter((p) => p.paidInFull && p.currency === currency);
    const otherCurrency = asked.find((p) => p.currency !== currency) ?? null;
    if (requestedId && otherCurrency)
      throw new AppError('upgrade-other-currency', OTHER_CURRENCY_MESSAGE, { upgradeFrom: OTHER_CURRENCY_MESSAGE });
    let best: { purchase: PurchaseRow; credit: number } | null = null;
    for (const purchase of usable) {
      const credit = await paidNetOfRefunds(purchase);
      if (!best || credit > best.credit) best = { purchase, credit };
    }
    return { best, otherCurrency: best ? null : otherCurrency };
  }

  async function priced(
    request: QuoteRequest,
    catalog: (productId: string) => Promise<OnSale | null>,
    ip?: string | null,
  ): Promise<CheckoutQuote> {
    const now = clock.now();
    // The coupons are looked up by the product's id beside the product itself (one round trip, not two).
    const [found, coupons] = await Promise.all([
      catalog(request.productId),
      quoteCoupons(db, request.productId, request.couponCode, now),
    ]);
    if (!found) throw new AppError('product-not-found', 'This course is not on sale.');
    const { product, price } = found;
    // A membership is paid each period through its subscription (docs/domain.md §22), never bought once: neither
    // quoted nor sold as a purchase of its courses.
    if (product.productType === 'membership')
      throw new AppError('product-is-membership', `${product.name} is a membership: subscribe to it instead.`);

    const buyer = request.buyer;
    const ownsIt = buyer
      ? Boolean(await holdingOf(db, buyer.id, product.id, { statuses: UNRESTRICTED_STATUSES }))
      : false;
    // Owning the course already makes another copy a seat to give away, never a silent duplicate.
    const team = request.forTeam || request.quantity > 1 || ownsIt;
    const existingSeats = buyer && team ? await seatsBoughtBy(db, buyer.id, product.id) : 0;

    const { entered, sale: running } = coupons;
    const use = { productId: product.id, now, buyer: buyer && { id: buyer.id, email: buyer.email }, db };
    // The sale is judged by the rules a code is: one asking about the buyer may not be this buyer's.
    const sale = running && !(await couponProblem(running, use)) ? running : undefined;
    const reason = request.couponCode ? await couponProblem(entered, use) : null;
    const problem = reason && problemFor(reason, Boolean(buyer));
    const pppBp = pppForCountry(request.country);
    const source =
      buyer && !team ? await upgradeSource(buyer, product.id, price.currency, request.upgradeFromId) : null;
    const upgrade = source?.best ?? null;
    if (request.upgradeFromId && !buyer) throw new AppError('unauthenticated', 'Sign in to upgrade a course you own.');

    const result = quote({
      unitAmount: price.unitAmount,
      quantity: request.quantity,
      team,
      existingSeats,
      // Unlocking a regional purchase is at the full price: no regional price on top.
      pppBp: upgrade?.purchase.productId === product.id ? null : pppBp,
      pppRequested: request.pppRequested,
      coupon: entered && !problem ? asOffer(entered) : null,
      defaultCoupon: sale ? asOffer(sale) : null,
      upgradeCredit: upgrade?.credit ?? 0,
    });
    // Tax follows the billing place; the regional price above follows the detected country, never the billing one.
    const place = request.billing ?? {
      country: request.country,
      region: null,
      vatId: null,
      postalCode: null,
      problem: null,
    };
    const { tax, answer: taxAnswer, billing } = await taxOf(result.finalPrice, price.currency, place, product.id, ip);

    return {
      product: { id: product.id, name: product.name },
      currency: price.currency,
      country: request.country,
      quote: { ...result, tax, total: chargedTotal(result.finalPrice, tax) },
      billing,
      ppp: pppBp && request.country && !team ? { country: request.country, percent: pppBp / 100 } : null,
      sale: sale ? { couponId: sale.id, percent: sale.percentageDiscount * 100, expires: sale.expires } : null,
      coupon: request.couponCode
        ? { code: request.couponCode, problem, message: problem ? COUPON_MESSAGES[problem] : null }
        : null,
      upgrade: upgrade
        ? {
            fromPurchaseId: upgrade.purchase.id,
            fromProductId: upgrade.purchase.productId,
            credit: result.credit,
            worth: upgrade.credit,
          }
        : null,
      upgradeRefused: source?.otherCurrency
        ? { fromPurchaseId: source.otherCurrency.id, reason: 'other-currency', message: OTHER_CURRENCY_MESSAGE }
        : null,
      team: team ? { seats: request.quantity + existingSeats, existingSeats } : null,
      teamTiers: TEAM_TIERS,
      taxAnswer,
    };
  }

  return {
    /** The quote as the buyer reads it, from what the database holds now (the pricing simulator's). */
    async quote(request: QuoteRequest): Promise<QuotePreview> {
      const { taxAnswer: _calculation, ...quote } = await priced(request, onSale);
      return quote;
    },
    /** The quote checkout charges, with the tax as its calculator answered it. */
    forCheckout: (request: QuoteRequest) => priced(request, onSale),
    async preview({ ip, ...request }: PreviewRequest): Promise<QuotePreview> {
      const lookup = request.couponCode ? await limits.couponLookup(ip) : null;
      // Tax calculations that cost a call to Stripe are counted per client address, as coupon codes tried are.
      const { taxAnswer: _calculation, ...preview } = await priced(request, onSaleCached, ip);
      // Answered only if the limit still allows it, whether the code applies or not.
      if (lookup) await (preview.coupon?.problem ? lookup.missed() : lookup.applied());
      return preview;
    },
  };
}

export type QuoteService = ReturnType<typeof quoteService>;
