import Router from '@koa/router';
import { escapeHtml } from '../shared/escape-html';
import { formatMoney } from '../shared/money';
import { taxLineText, type TaxShown } from '../shared/tax-text';
import type { Policies } from '../identity/http/policy';
import type { Logger } from '../logger';
import type { RefundSettlement } from './provider';
import { TestCheckoutIdentifier, TestRefundSettlement } from './schemas';
import { TEST_CHECKOUT_PATH, type TestProvider } from './test-provider';

/** A page of the test provider's hosted site, styled as one. */
export function testPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{font-family:system-ui,sans-serif;background:#f6f7f9;color:#1f2328;display:grid;place-items:center;min-height:100vh;margin:0}
main{background:#fff;border:1px solid #d8dee4;border-radius:10px;padding:2rem;max-width:26rem;width:calc(100% - 3rem)}
.amount{font-size:2rem;font-weight:700;color:#12355b;margin:.25rem 0 1rem}.note{color:#57606a;font-size:.9rem}
form{display:inline}button{font:inherit;padding:.6rem 1.2rem;border-radius:6px;border:1px solid #12355b;cursor:pointer;margin-right:.5rem}
.pay{background:#12355b;color:#fff}.cancel{background:#fff;color:#12355b}button:focus-visible{outline:3px solid #f0b429;outline-offset:2px}
</style></head><body><main>${body}</main></body></html>`;
}

/** The tax the total holds or had added, as a real provider's page shows it; nothing where no tax applies. */
function taxLine(session: { tax: TaxShown | null; currency: string }): string {
  return session.tax ? `<p class="tax">${escapeHtml(taxLineText(session.tax, session.currency))}</p>` : '';
}

/** The built-in test provider's hosted checkout: Pay or Cancel, both leading back to the storefront. */
interface Deps {
  allow: Policies;
  provider: TestProvider;
  /** What a real provider's webhook would trigger: fulfilment, or giving a canceled checkout's coupon use back. */
  settle: (sessionIdentifier: string) => Promise<unknown>;
  /** What a real provider's refund event would trigger: a pending refund recorded, or its reservation released. */
  refundSettled: (settlement: RefundSettlement) => Promise<unknown>;
  logger: Logger;
}

export function testProviderRoutes({ allow, provider, settle, refundSettled, logger }: Deps) {
  // Like a webhook, settling is the provider's business: the buyer is sent on whatever happens to it.
  const settleQuietly = (identifier: string) =>
    settle(identifier).catch((error: unknown) =>
      logger.warn({ err: error, identifier }, 'settling a test checkout failed; the thank-you page will retry'),
    );

  const router = new Router({ prefix: TEST_CHECKOUT_PATH });

  router.get('/:identifier', allow.public(), async (ctx) => {
    const { identifier } = TestCheckoutIdentifier.parse(ctx.params);
    const session = await provider.page(identifier);
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    ctx.body =
      session.status === 'open'
        ? testPage(
            'Test checkout',
            `<h1>Test checkout</h1><p>${escapeHtml(session.description)}</p>${taxLine(session)}<p class="amount">${escapeHtml(formatMoney(session.amount, session.currency))}</p>
<p class="note">Receipt to ${escapeHtml(session.customerEmail)}. This is the built-in test payment provider: no card is charged.</p>
<form method="post" action="${TEST_CHECKOUT_PATH}/${identifier}/pay"><button class="pay" type="submit">Pay</button></form>
<form method="post" action="${TEST_CHECKOUT_PATH}/${identifier}/cancel"><button class="cancel" type="submit">Cancel</button></form>`,
          )
        : testPage(
            'Test checkout',
            `<h1>This checkout is ${escapeHtml(session.status)}</h1><p><a href="/">Back to the courses</a></p>`,
          );
  });

  router.post('/:identifier/pay', allow.public(), async (ctx) => {
    const { identifier } = TestCheckoutIdentifier.parse(ctx.params);
    const { redirect } = await provider.pay(identifier);
    await settleQuietly(identifier);
    ctx.status = 303;
    ctx.redirect(redirect);
  });

  router.post('/:identifier/cancel', allow.public(), async (ctx) => {
    const { identifier } = TestCheckoutIdentifier.parse(ctx.params);
    const { redirect } = await provider.cancel(identifier);
    await settleQuietly(identifier);
    ctx.status = 303;
    ctx.redirect(redirect);
  });

  // The processor's later decision on a refund it held pending, delivered as a provider's event would be.
  router.post('/refunds/:identifier/:outcome', allow.public(), async (ctx) => {
    const { identifier, outcome } = TestRefundSettlement.parse(ctx.params);
    const settlement = await provider.settleRefund(identifier, outcome);
    if (settlement) await refundSettled(settlement);
    ctx.body = { data: { settled: Boolean(settlement) } };
  });

  return router;
}
