import { expect } from 'vitest';
import { createApp } from '../../api/src/app';
import type { Clock } from '../../api/src/clock';
import type { Db } from '../../api/src/db/connection';
import { createServices, type Deps, type Services } from '../../api/src/services';
import { testConfig, testDeps } from './app';
import { sessionOfCheckout } from './checkout';
import { Purchase } from './models';
import { deliverSigned, standInEnv, startStripeStandIn, type StandIn } from './stripe-stand-in';

/** The product selling through the Stripe stand-in, as finance's tests drive it. */
export interface StripeShop {
  stripe: StandIn;
  deps: Deps;
  services: Services;
  app: ReturnType<ReturnType<typeof createApp>['callback']>;
}

/**
 * Starts the stand-in and builds the product on it, on `clock` when given; `adjust` may replace a service (another
 * clock for one of them) before the app takes them. The caller closes `stripe`.
 */
export async function startStripeShop(
  db: Db,
  { clock, adjust }: { clock?: Clock; adjust?: (services: Services, deps: Deps) => void } = {},
): Promise<StripeShop> {
  const stripe = await startStripeStandIn();
  const deps = testDeps(db, { config: testConfig(standInEnv(stripe)), clock });
  const services = createServices(deps);
  adjust?.(services, deps);
  return { stripe, deps, services, app: createApp(deps, { services }).callback() };
}

/** A checkout of one `productId` for `email`, a guest in the US, started as the storefront starts it: its id. */
export async function startedCheckout(services: Services, productId: string, email: string): Promise<string> {
  const { checkoutId } = await services.checkouts.create({
    productId,
    quantity: 1,
    team: false,
    ppp: false,
    email,
    buyer: null,
    country: 'US',
    ip: null,
  });
  return checkoutId;
}

/** A sale paid on Stripe's page, its event delivered and the checkout fulfilled: the purchase and its charge's row. */
export async function soldOnStripe(db: Db, shop: StripeShop, productId: string, email: string) {
  const checkoutId = await startedCheckout(shop.services, productId, email);
  expect((await deliverSigned(shop.app, shop.stripe.pay(await sessionOfCheckout(db, checkoutId)))).status).toBe(200);
  const purchase = (await Purchase.query(db).findOne({
    id: (await shop.services.checkouts.fulfil(checkoutId)).purchaseId!,
  }))!;
  const charge = await db('merchantCharges').where({ id: purchase.merchantChargeId }).first();
  return { purchase, charge };
}
