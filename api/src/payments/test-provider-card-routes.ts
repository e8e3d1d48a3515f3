import Router from '@koa/router';
import { escapeHtml } from '../shared/escape-html';
import type { Policies } from '../identity/http/policy';
import type { Logger } from '../logger';
import { TestSubscriptionIdentifier } from './schemas';
import type { TestProviderBilling } from './test-provider-card';
import { testPage } from './test-provider-routes';
import { TEST_SUBSCRIPTION_PATH } from './test-provider-subscriptions';

/**
 * The test provider's card page, as a real provider's customer portal: the subscriber sets a card that works (a
 * renewal owed is paid at once) or one that is declined, and goes back to the site's Billing page.
 */
export function testProviderCardRoutes({
  allow,
  subscriptions,
  logger,
}: {
  allow: Policies;
  subscriptions: TestProviderBilling;
  logger: Logger;
}) {
  const router = new Router({ prefix: TEST_SUBSCRIPTION_PATH });

  router.get('/:identifier/card', allow.public(), async (ctx) => {
    const { identifier } = TestSubscriptionIdentifier.parse(ctx.params);
    const card = await subscriptions.cardPage(identifier);
    const now = card.cardDeclined ? 'The card on file was declined.' : 'The card on file works.';
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = testPage(
      'Update your card',
      `<h1>Update your card</h1><p>${escapeHtml(card.description)}</p><p class="card-state">${now}</p>
<p class="note">For ${escapeHtml(card.customerEmail)}. This is the built-in test payment provider: no card is charged.</p>
<form method="post" action="${TEST_SUBSCRIPTION_PATH}/${identifier}/card/works"><button class="pay" type="submit">Use a card that works</button></form>
<form method="post" action="${TEST_SUBSCRIPTION_PATH}/${identifier}/card/declined"><button class="cancel" type="submit">Use a card that is declined</button></form>`,
    );
  });

  for (const [path, works] of [
    ['works', true],
    ['declined', false],
  ] as const)
    router.post(`/:identifier/card/${path}`, allow.public(), async (ctx) => {
      const { identifier } = TestSubscriptionIdentifier.parse(ctx.params);
      const { redirect } = await subscriptions.setCard(identifier, works).catch((error: unknown) => {
        // The retry's recording is the provider's to repeat, as a webhook's: the subscriber is sent back anyway.
        logger.warn({ err: error, identifier }, 'setting a test card failed');
        return { redirect: '/' };
      });
      ctx.status = 303;
      ctx.redirect(redirect);
    });

  return router;
}
