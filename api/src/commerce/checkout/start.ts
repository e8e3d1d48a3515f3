import type { ModelObject } from 'objection';
import type { Price, Product } from '../../catalog/models';
import type { User } from '../../identity/models';
import { networkOf } from '../../identity/rate-limit';
import { isEmailBlocked } from '../../identity/staff/blocks';
import type { CheckoutRequest } from '../../payments/provider';
import { currencyProblem } from '../../shared/currency';
import { AppError } from '../../shared/errors';
import { refuseAtCheckout } from '../coupons/coupons';
import type { Quote } from '../pricing/prices';
import type { BillingInput, CheckoutStarted } from '../schemas';
import { availability, MESSAGES } from './availability';
import { BILLING_MESSAGES, billingPlace } from './billing-place';
import { refuseUnknownPlace, rememberBilling } from './billing-profile';
import type { CheckoutQuote } from './quotes';
import { taxColumnsOf } from './tax-columns';
import type { CheckoutDeps } from './checkout-deps';
import { insertCheckout, recordSession } from './checkout-rows';
import { deadlineAfter } from './deadline';
import { reserveCouponUse } from './reserve-coupon-use';
import { cancelCheckout, fulfilCheckout } from './settle';

export interface CheckoutInput {
  productId: string;
  quantity: number;
  team: boolean;
  /** One seat for someone else (team is then true): its own one-seat team, never added to the buyer's team. */
  gift?: boolean;
  couponCode?: string;
  ppp: boolean;
  upgradeFromId?: string;
  email?: string;
  buyer: User | null;
  country: string;
  city?: string | null;
  state?: string | null;
  ip: string | null;
  /** The billing details given: the tax follows their country (the detected one when absent). */
  billing?: BillingInput;
}

/** What the provider shows next to the discount line: the kind of discount and any upgrade credit. */
function discountLabel(quote: Quote): string {
  const kinds: Record<string, string> = {
    ppp: 'Regional price',
    team: 'Team discount',
    coupon: 'Coupon',
    'default-coupon': 'Sale',
  };
  const parts = [quote.credit > 0 ? 'Upgrade credit' : null, quote.discount ? kinds[quote.discount.kind] : null].filter(
    Boolean,
  );
  return parts.join(' + ') || 'Discount';
}

/** The hosted checkout the provider is asked for: what is bought, the quoted amount, and the way back to us. */
function sessionRequest(
  publicUrl: string,
  input: CheckoutInput,
  sale: { checkoutId: string; email: string; product: ModelObject<Product>; price: ModelObject<Price> },
  answer: CheckoutQuote,
): CheckoutRequest {
  const { checkoutId, email, product, price } = sale;
  const { quote } = answer;
  const couponId = quote.discount?.couponId ?? null;
  const taken = quote.fullPrice - quote.finalPrice;
  return {
    reference: checkoutId,
    product: { id: product.id, name: product.name },
    price: { id: price.id, unitAmount: price.unitAmount },
    quantity: input.quantity,
    description: input.gift
      ? `${product.name} (a gift)`
      : answer.team
        ? `${product.name} × ${input.quantity} seats`
        : product.name,
    discount: taken > 0 ? { amount: taken, label: discountLabel(quote) } : null,
    // What is charged: any tax on top is already in it.
    amount: quote.total,
    currency: answer.currency,
    customerEmail: email,
    successUrl: thanksUrl(publicUrl, checkoutId),
    cancelUrl: new URL(`/products/${product.slug ?? product.id}?canceled=1`, publicUrl).toString(),
    metadata: {
      checkoutId,
      productId: product.id,
      quantity: String(input.quantity),
      ...(couponId && { couponId }),
      ...(answer.upgrade && { upgradeFromId: answer.upgrade.fromPurchaseId }),
      country: input.country,
      buyerEmail: email,
    },
    tax: answer.taxAnswer,
    taxInclusive: answer.taxAnswer?.inclusive,
    billing: answer.billing.country
      ? {
          country: answer.billing.country,
          region: answer.billing.region,
          postalCode: answer.billing.postalCode,
          vatId: answer.billing.vatId,
          company: input.billing?.company || null,
          address: input.billing?.address || null,
        }
      : undefined,
  };
}

const thanksUrl = (publicUrl: string, checkoutId: string) =>
  new URL(`/thanks?checkout=${checkoutId}`, publicUrl).toString();

/**
 * Starts a checkout (docs/domain.md §6.2): counted against the abuse limits, quoted, checked, recorded with any
 * limited coupon's use reserved, and then fulfilled at once when free, else paid at the provider's hosted session.
 */
export async function startCheckout(deps: CheckoutDeps, input: CheckoutInput): Promise<CheckoutStarted> {
  const { db, clock, config, provider, quotes, limits } = deps;
  // Counted before anything is quoted, reserved or asked of the provider.
  await limits.checkoutStart({ ip: input.ip, buyerId: input.buyer?.id ?? null, email: input.email });
  // A blocked person buys nothing, signed in or as a guest with their email: refused before anything is written.
  if (input.buyer ? input.buyer.blockedAt : input.email && (await isEmailBlocked(db, input.email)))
    throw new AppError(
      'buyer-blocked',
      MESSAGES['buyer-blocked'],
      input.buyer ? undefined : { email: 'cannot be used to buy here: contact our support team' },
    );
  const place = billingPlace(input.billing ?? {}, { country: input.country, region: input.state ?? null });
  refuseUnknownPlace(place, 'billing.');
  const answer = await quotes.forCheckout({
    productId: input.productId,
    quantity: input.quantity,
    forTeam: input.team,
    couponCode: input.couponCode,
    country: input.country,
    pppRequested: input.ppp,
    upgradeFromId: input.upgradeFromId,
    buyer: input.buyer,
    billing: place,
  });
  if (answer.coupon?.problem)
    throw new AppError(answer.coupon.problem, answer.coupon.message!, { coupon: answer.coupon.message! });
  // A price set before such currencies were refused: never charged in a unit the provider counts differently.
  if (currencyProblem(answer.currency))
    throw new AppError(
      'currency-not-supported',
      'This course cannot be bought in its currency. Contact our support team.',
    );
  const email = input.buyer?.email ?? input.email;
  if (!email)
    throw new AppError('validation-failed', 'Enter an email address for your receipt.', {
      email: 'is required when not signed in',
    });
  // The quote priced a VAT ID that does not fit as a consumer's purchase; paying needs the buyer to decide.
  if (answer.billing.vatIdProblem) {
    const message = BILLING_MESSAGES[answer.billing.vatIdProblem];
    throw new AppError('vat-id-invalid', message, { 'billing.vatId': message });
  }
  if (answer.billing.regionRequired)
    throw new AppError('billing-region-required', BILLING_MESSAGES['region-required'], {
      'billing.region': 'choose your state or province',
    });
  if (answer.billing.postalCodeRequired)
    throw new AppError(
      'billing-postal-code-required',
      answer.billing.message ?? BILLING_MESSAGES['postal-code-required'],
      {
        'billing.postalCode': 'enter your ZIP or postal code',
      },
    );
  // A guest's checkout answers the same whether or not the address owns the course, so the form cannot be used to
  // find out who bought what. A payment from an owning address becomes a one-seat team (a copy to give away, never
  // a duplicate), and its receipt says so and offers the refund (fulfillable.ts).
  const product = (await db('products').where({ id: input.productId }).first()) as ModelObject<Product>;
  const price = (await db('prices').where({ productId: product.id, status: 'active' }).first()) as ModelObject<Price>;
  const seats = answer.team ? input.quantity : 1;
  const problem = await availability(db, product, seats, clock.now());
  if (problem) throw new AppError(problem, MESSAGES[problem]);

  const { quote } = answer;
  const couponId = quote.discount?.couponId ?? null;
  const checkoutId = await db.transaction(async (trx) => {
    const network = input.ip ? networkOf(input.ip) : null;
    const holder = { email, network };
    const buyer = { id: input.buyer?.id ?? null, email };
    if (couponId)
      await refuseAtCheckout(trx, couponId, { productId: product.id, now: clock.now(), buyer }, Boolean(input.buyer));
    const couponReserved = couponId ? await reserveCouponUse(deps, trx, couponId, holder, Boolean(input.buyer)) : false;
    // The details given are the buyer's next checkout's and their invoice correction's starting point.
    if (input.buyer && input.billing)
      await rememberBilling(trx, input.buyer.id, {
        company: input.billing.company ?? '',
        address: input.billing.address ?? '',
        country: place.country,
        region: place.region,
        postalCode: place.postalCode ?? '',
        vatId: place.vatId ?? '',
      });
    return insertCheckout(trx, {
      productId: product.id,
      priceId: price.id,
      quantity: input.quantity,
      team: Boolean(answer.team),
      gift: Boolean(input.gift && answer.team),
      couponId,
      couponReserved,
      upgradeFromId: answer.upgrade?.fromPurchaseId ?? null,
      buyerUserId: input.buyer?.id ?? null,
      buyerEmail: email,
      country: input.country,
      city: input.city ?? null,
      state: input.state ?? null,
      ipAddress: input.ip,
      clientNetwork: network,
      billingCompany: input.billing?.company || null,
      billingAddress: input.billing?.address || null,
      billingCountry: place.country,
      billingRegion: place.region,
      billingPostalCode: place.postalCode,
      billingVatId: place.vatId,
      discountKind: quote.discount?.kind ?? null,
      discountBp: quote.discount?.bp ?? null,
      discountAmount: quote.discount?.amount ?? 0,
      ...taxColumnsOf(quote.tax),
      amountTotal: quote.total,
      creditAmount: quote.credit,
      upgradeBasis: answer.upgrade?.worth ?? null,
      currency: answer.currency,
      restricted: quote.restricted,
      expiresAt: deadlineAfter(clock.now()),
    });
  });
  if (quote.free) {
    try {
      await fulfilCheckout(deps, checkoutId);
    } catch (error) {
      await cancelCheckout(db, checkoutId);
      throw error;
    }
    return { checkoutId, url: thanksUrl(config.publicUrl, checkoutId) };
  }
  let session: { identifier: string; url: string };
  try {
    session = await provider.createCheckout(
      sessionRequest(config.publicUrl, input, { checkoutId, email, product, price }, answer),
    );
  } catch (error) {
    await cancelCheckout(db, checkoutId); // nothing can be paid: the coupon use goes back at once
    throw error;
  }
  const accountId = await provider.accountId();
  await db.transaction((trx) => recordSession(trx, accountId, session.identifier, checkoutId));
  return { checkoutId, url: session.url };
}
