import Router from '@koa/router';
import type { Config } from '../config';
import { authOf, userOf } from '../identity/http/caller';
import type { MyPurchasesService } from './purchases/my-purchases';
import { IdParam } from '../http/params';
import type { Policies } from '../identity/http/policy';
import { buyerCountry, buyerPlace } from '../http/buyer-location';
import type { QuoteService } from './checkout/quotes';
import type { CheckoutService } from './checkout/checkout';
import { billingPlace } from './checkout/billing-place';
import type { BillingProfiles } from './checkout/billing-profile';
import { BillingDetails, CheckoutBody, QuoteQuery, type QuoteAnswer } from './schemas';

/** The storefront's commerce endpoints under /api/store. */
interface Deps {
  allow: Policies;
  config: Config;
  quotes: QuoteService;
  checkouts: CheckoutService;
  purchases: MyPurchasesService;
  billing: BillingProfiles;
}

export function commerceRoutes({ allow, config, quotes, checkouts, purchases, billing }: Deps) {
  const router = new Router();

  // The signed-in buyer's remembered billing details: the buy box and an invoice's correction start from them.
  router.get('/billing', allow.signedIn(), async (ctx) => {
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = { data: await billing.get(userOf(ctx).id) };
  });

  router.put('/billing', allow.signedIn(), async (ctx) => {
    const body = BillingDetails.parse(ctx.request.body);
    ctx.body = { data: await billing.put(userOf(ctx).id, body) };
  });

  router.get('/purchases', allow.signedIn(), async (ctx) => {
    ctx.body = { data: await purchases.list(userOf(ctx).id) };
  });

  // Signed in or not (an email is then required); the buyer's country is always the detected one.
  router.post('/checkout', allow.public(), async (ctx) => {
    const body = CheckoutBody.parse(ctx.request.body);
    ctx.status = 201;
    ctx.body = await checkouts.create({
      productId: body.productId,
      quantity: body.quantity,
      team: body.team || body.gift,
      gift: body.gift,
      couponCode: body.coupon,
      ppp: body.ppp,
      upgradeFromId: body.upgradeFrom,
      email: body.email,
      buyer: authOf(ctx)?.user ?? null,
      country: buyerCountry(ctx, config),
      ...buyerPlace(ctx, config),
      ip: ctx.ip || null,
      billing: body.billing,
    });
  });

  // The thank-you page asks until the purchase exists; asking also fulfils a paid checkout (exactly once).
  router.get('/checkouts/:id', allow.public(), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await checkouts.outcome(IdParam.parse(ctx.params).id, authOf(ctx)?.user.id ?? null);
  });

  // Anyone may ask; a signed-in buyer also sees team seats already bought and upgrade credit.
  router.get('/products/:id/quote', allow.public(), async (ctx) => {
    const { id } = IdParam.parse(ctx.params);
    const query = QuoteQuery.parse(ctx.query);
    const detected = buyerCountry(ctx, config);
    // Billed where the preview is for, unless the buyer names their billing country.
    const given = {
      country: query.billingCountry ?? query.country,
      region: query.region,
      postalCode: query.postalCode,
      vatId: query.vatId,
    };
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = {
      ...(await quotes.preview({
        productId: id,
        quantity: query.quantity,
        forTeam: query.team,
        couponCode: query.coupon,
        // A country in the query previews another region's price; checkout always uses the detected one.
        country: query.country ?? detected,
        pppRequested: query.ppp,
        upgradeFromId: query.upgradeFrom,
        buyer: authOf(ctx)?.user ?? null,
        ip: ctx.ip || null,
        // Tax follows the billing place: the detected country (and region) unless the buyer names theirs.
        billing: billingPlace(given, { country: detected, region: buyerPlace(ctx, config).state }),
      })),
      detectedCountry: detected,
    } satisfies QuoteAnswer;
  });

  return router;
}
