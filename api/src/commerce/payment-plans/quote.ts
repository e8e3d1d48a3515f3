import { AppError } from '../../shared/errors';
import type { PaymentPlanDeps } from './deps';
import type { PaymentPlanTerms } from './buy';
import { planQuoteOf, pricePlan, type PaymentPlanQuote } from './plan-price';

/**
 * A plan's instalments priced for the buyer exactly as buying it will bill them (docs/domain.md §23), nothing started:
 * the sales page shows them ("3 payments of …", each one's tax). A guest's quote hears one answer for any refused
 * coupon, as at checkout; a signed-in buyer hears why.
 */
export async function quotePaymentPlan(
  { db, clock, config }: PaymentPlanDeps,
  userId: string | null,
  productId: string,
  asked: PaymentPlanTerms = {},
): Promise<PaymentPlanQuote> {
  const product = (await db('products').where({ id: productId, status: 'active' }).first('id')) as
    { id: string } | undefined;
  if (!product) throw new AppError('product-not-found', 'No such product.');
  const user = userId
    ? ((await db('users').where({ id: userId }).first('id', 'email')) as { id: string; email: string })
    : null;
  const priced = await pricePlan(db, productId, {
    ...asked,
    country: asked.country ?? config.DEFAULT_COUNTRY,
    region: asked.region ?? null,
    buyer: user ?? null,
    now: clock.now(),
  });
  return planQuoteOf(productId, priced);
}
