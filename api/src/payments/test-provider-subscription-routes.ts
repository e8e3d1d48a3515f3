import Router, { type RouterMiddleware } from '@koa/router';
import { escapeHtml } from '../shared/escape-html';
import { formatMoney } from '../shared/money';
import type { Policies } from '../identity/http/policy';
import type { Logger } from '../logger';
import type { SubscriptionEvent } from './provider';
import { TestRenewalBody, TestRenewalKey, TestRenewalParams, TestSubscriptionIdentifier } from './schemas';
import { testPage } from './test-provider-routes';
import { TEST_SUBSCRIPTION_PATH } from './test-provider-subscriptions';
import type { TestProviderBilling } from './test-provider-card';

interface Deps {
  allow: Policies;
  subscriptions: TestProviderBilling;
  /** What a real provider's subscription webhook would trigger: the event recorded by commerce. */
  recordEvent: (event: SubscriptionEvent) => Promise<unknown>;
  /** The renewal's JSON body: these pages are outside the API and its body parsing. */
  jsonBody: RouterMiddleware;
  logger: Logger;
}

/**
 * The built-in test provider's subscriptions: its hosted page in subscription mode (Subscribe / Cancel), and a
 * renewal anyone may ask for now, paid or failed, so a membership's whole life runs without Stripe.
 */
export function testProviderSubscriptionRoutes({ allow, subscriptions, recordEvent, jsonBody, logger }: Deps) {
  const router = new Router({ prefix: TEST_SUBSCRIPTION_PATH });
  // Like a webhook's, a failed delivery is the provider's to retry: the buyer is sent on.
  const deliverQuietly = (event: SubscriptionEvent) =>
    recordEvent(event).catch((error: unknown) =>
      logger.warn({ err: error, identifier: event.identifier }, 'recording a test subscription event failed'),
    );

  router.get('/:identifier', allow.public(), async (ctx) => {
    const { identifier } = TestSubscriptionIdentifier.parse(ctx.params);
    const sub = await subscriptions.page(identifier);
    const every = sub.interval === 'month' ? 'month' : 'year';
    const trial = sub.trialDays > 0 ? `<p>Free for ${sub.trialDays} days, then:</p>` : '';
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    ctx.body =
      sub.status === 'incomplete'
        ? testPage(
            'Test subscription',
            `<h1>Test subscription</h1><p>${escapeHtml(sub.description)}</p>${trial}<p class="amount">${escapeHtml(formatMoney(sub.amount, sub.currency))} / ${every}</p>
<p class="note">Receipts to ${escapeHtml(sub.customerEmail)}. This is the built-in test payment provider: no card is charged.</p>
<form method="post" action="${TEST_SUBSCRIPTION_PATH}/${identifier}/pay"><button class="pay" type="submit">Subscribe</button></form>
<form method="post" action="${TEST_SUBSCRIPTION_PATH}/${identifier}/cancel"><button class="cancel" type="submit">Cancel</button></form>`,
          )
        : testPage(
            'Test subscription',
            `<h1>This subscription is ${escapeHtml(sub.status)}</h1><p><a href="/">Back to the courses</a></p>`,
          );
  });

  router.post('/:identifier/pay', allow.public(), async (ctx) => {
    const { identifier } = TestSubscriptionIdentifier.parse(ctx.params);
    const { redirect, event } = await subscriptions.subscribe(identifier);
    if (event) await deliverQuietly(event);
    ctx.status = 303;
    ctx.redirect(redirect);
  });

  router.post('/:identifier/cancel', allow.public(), async (ctx) => {
    const { identifier } = TestSubscriptionIdentifier.parse(ctx.params);
    const { redirect } = await subscriptions.abandon(identifier);
    ctx.status = 303;
    ctx.redirect(redirect);
  });

  // Bills the next period now; the event is delivered as a provider's webhook would be (its failure is the caller's).
  router.post('/:id/renew', allow.public(), jsonBody, async (ctx) => {
    const { id } = TestRenewalParams.parse(ctx.params);
    const { outcome } = TestRenewalBody.parse(ctx.request.body);
    const key = TestRenewalKey.parse(ctx.get('Idempotency-Key') || undefined) ?? null;
    const event = await subscriptions.renew(id, outcome, key);
    await recordEvent(event);
    ctx.body = {
      data: {
        invoice: event.invoice.identifier,
        outcome: event.invoice.outcome,
        periodStart: event.invoice.periodStart,
        periodEnd: event.invoice.periodEnd,
      },
    };
  });

  return router;
}
