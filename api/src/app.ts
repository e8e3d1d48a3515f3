import zlib from 'node:zlib';
import compress from 'koa-compress';
import path from 'node:path';
import Koa from 'koa';
import compose from 'koa-compose';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import { PROJECT_ROOT } from './config';
import { adminExtraRoutes } from './admin/extra-routes';
import { timelineRoutes } from './admin/people/timeline-routes';
import { viewAsRoutes } from './identity/staff/view-as-routes';
import { pricingRoutes } from './pricing-simulator/routes';
import { adminRoutes } from './admin/routes';
import { listToolRoutes } from './admin/lists/tool-routes';
import { ADMIN_RESOURCES } from './admin/resources';
import { catalogRoutes } from './catalog/routes';
import { certificateAdminRoutes, certificatePdfRoutes, certificateRoutes } from './certificates/routes';
import { workshopRoutes } from './catalog/workshops/routes';
import { waitlistRoutes } from './catalog/waitlist/routes';
import { commerceRoutes } from './commerce/routes';
import { invoiceAdminRoutes, invoiceRoutes } from './invoices/routes';
import { testProviderRoutes } from './payments/test-provider-routes';
import { testProviderSubscriptionRoutes } from './payments/test-provider-subscription-routes';
import { testProviderCardRoutes } from './payments/test-provider-card-routes';
import { STRIPE_WEBHOOK_PATH, webhookRoutes } from './commerce/provider-events/webhook-routes';
import { purchaseActionRoutes } from './commerce/purchases/action-routes';
import { personPurchaseRoutes } from './commerce/purchases/person-routes';
import { teamAdminRoutes } from './commerce/teams/admin-routes';
import { teamRoutes } from './commerce/teams/routes';
import { commentModerationRoutes, learningRoutes } from './learning/routes';
import { quizResultRoutes, quizRoutes } from './learning/quizzes/routes';
import { searchRoutes } from './search/routes';
import { reportRoutes } from './finance/report-routes';
import { financeRoutes } from './finance/routes';
import { monthCloseRoutes } from './finance/month-close/routes';
import { payoutRoutes } from './finance/payouts/routes';
import { reconciliationRoutes } from './finance/reconciliation/routes';
import { earningsRoutes } from './finance/earnings/routes';
import { transferRoutes } from './commerce/transfers/routes';
import { subscriptionRoutes } from './commerce/subscriptions/routes';
import { subscriptionSeatRoutes } from './commerce/subscriptions/seat-routes';
import { paymentPlanRoutes } from './commerce/payment-plans/routes';
import { subscriptionConsoleRoutes } from './commerce/subscriptions/console-routes';
import { subscriptionFigureRoutes } from './finance/subscription-figure-routes';
import { healthRoutes } from './health/routes';
import { authenticate } from './identity/http/caller';
import { errorHandler, notFound, requestContext } from './http/context';
import { nestsDeeperThan, tooDeep } from './http/json-depth';
import { jsonAsText } from './http/json-text';
import { routesByPath } from './http/routes-by-path';
import { allow } from './identity/http/policy';
import { identityAdminRoutes } from './admin/identity-routes';
import { supportRoutes } from './identity/staff/support-routes';
import { jobAdminRoutes } from './admin/job-routes';
import { imageAdminRoutes } from './admin/images/routes';
import { schoolAdminRoutes, schoolStoreRoutes } from './school/routes';
import { personalDataAdminRoutes, personalDataRoutes } from './privacy/routes';
import { videoAdminRoutes } from './video/admin-routes';
import { mediaRoutes } from './media/routes';
import { oauthRoutes } from './identity/devices/oauth-routes';
import { identityRoutes } from './identity/routes';
import { displayNameRoutes } from './identity/profile/display-name-routes';
import { timeZoneRoutes } from './identity/profile/time-zone-routes';
import { replyEmailRoutes } from './identity/profile/reply-email-routes';
import { createServices, type Deps, type Services } from './services';
import { securityHeaders } from './web/security-headers';
import { securityTxtRoutes } from './web/security-txt-routes';
import { serveSpa } from './web/static';
import { seoRoutes } from './web/seo-routes';
import { siteIconRoutes } from './web/site-icon-routes';
import { siteIcons } from './web/site-icons';
import { storefrontPage } from './web/storefront-pages';
import { videoMediaRoutes, videoStoreRoutes } from './video/store-routes';
import { attachmentAdminRoutes, attachmentMediaRoutes, attachmentStoreRoutes } from './learning/attachments/routes';

export const APP_DIST = {
  storefront: path.join(PROJECT_ROOT, 'storefront', 'dist'),
  admin: path.join(PROJECT_ROOT, 'admin', 'dist'),
};

const WEBHOOKS_PREFIX = '/api/webhooks/';

const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED']);

/** Paths the API answers (never the apps' index.html). */
const API_PREFIXES = ['/api', '/oauth', '/.well-known', '/media'];
const isUnder = (p: string, prefix: string) => p === prefix || p.startsWith(`${prefix}/`);
const isApiPath = (p: string) => API_PREFIXES.some((prefix) => isUnder(p, prefix));
/** The built-in test provider's pages (TEST_CHECKOUT_PATH and anything else it may grow). */
const TEST_PROVIDER_PREFIX = '/test-provider';

/** All API routes, by audience. Exported so tests can walk every route. */
export function createRouter(deps: Deps, services: Services) {
  const root = new Router();
  // Each router's routes join the root's; the root's own allowedMethods (the API's last step) answers 405 and OPTIONS
  // for all of them, so none is mounted per router (it ran, doing nothing, around every matched request).
  const mount = (prefix: string, router: Router) => root.use(prefix, router.routes());

  mount('/api', healthRoutes({ health: services.health, allow }));
  mount('', securityTxtRoutes({ config: deps.config, clock: deps.clock, allow }));
  mount('/api/store', catalogRoutes({ catalog: services.catalog, allow }));
  mount('/api/store', workshopRoutes({ workshops: services.workshops, allow }));
  mount('/api/store', waitlistRoutes({ waitlist: services.waitlist, allow }));
  mount('/api/store', identityRoutes({ allow, config: deps.config, ...services }));
  mount('/api/store', displayNameRoutes({ allow, displayNames: services.displayNames }));
  mount('/api/store', timeZoneRoutes({ allow, prefs: services.prefs }));
  mount('/api/store', replyEmailRoutes({ allow, optOut: services.replyEmailLinks }));
  mount('/api/store', personalDataRoutes({ allow, config: deps.config, personalData: services.personalData }));
  mount('/api/store', invoiceRoutes({ allow, invoices: services.invoices }));
  mount(
    '/api/store',
    commerceRoutes({
      allow,
      config: deps.config,
      quotes: services.quotes,
      checkouts: services.checkouts,
      purchases: services.purchases,
      billing: services.billing,
    }),
  );
  mount('/api/admin', identityAdminRoutes({ allow, outbox: services.outbox, signOut: services.signOut }));
  mount(
    '/api/admin',
    supportRoutes({
      allow,
      emails: services.personEmails,
      blocks: services.blocks,
      emailChange: services.emailChange,
    }),
  );
  mount('/api/admin', personalDataAdminRoutes({ allow, personalData: services.personalData }));
  const viewing = viewAsRoutes({ allow, viewAs: services.viewAs, config: deps.config });
  mount('/api/admin', viewing.admin);
  mount('/api/store', viewing.store);
  mount('/api/admin', jobAdminRoutes({ allow, jobs: services.jobs }));
  mount('/api/admin', imageAdminRoutes({ allow, imageAdmin: services.imageAdmin }));
  mount('/api/admin', schoolAdminRoutes({ allow, school: services.school }));
  mount('/api/store', schoolStoreRoutes({ allow, school: services.school }));
  mount('/api/admin', videoAdminRoutes({ allow, videos: services.videoAdmin, uploads: services.videoUploads }));
  mount('/media', mediaRoutes({ allow, images: services.images }));
  mount('/media', videoMediaRoutes({ allow, config: deps.config, media: services.videoMedia }));
  mount('/api/store', videoStoreRoutes({ allow, config: deps.config, playback: services.playback }));
  mount('/api/admin', attachmentAdminRoutes({ allow, attachments: services.attachments }));
  mount('/api/store', attachmentStoreRoutes({ allow, config: deps.config, attachments: services.attachments }));
  mount('/media', attachmentMediaRoutes({ allow, config: deps.config, attachments: services.attachments }));
  mount(
    '/api/store',
    learningRoutes({
      allow,
      config: deps.config,
      learning: services.learning,
      bookmarks: services.bookmarks,
      comments: services.comments,
    }),
  );
  mount('/api/store', searchRoutes({ allow, config: deps.config, search: services.search }));
  mount(
    '/api/admin',
    financeRoutes({
      allow,
      exports: services.financeExports,
      summary: services.financeSummary,
      tax: services.financeTaxReport,
    }),
  );
  mount('/api/admin', reportRoutes({ allow, reports: services.financeReports }));
  mount('/api/admin', payoutRoutes({ allow, payouts: services.payouts }));
  mount('/api/admin', reconciliationRoutes({ allow, reconciliation: services.reconciliation }));
  mount('/api/store', earningsRoutes({ allow, earnings: services.earnings }));
  mount('/api/admin', monthCloseRoutes({ allow, monthCloses: services.monthCloses }));
  mount('/api/admin', commentModerationRoutes({ allow, comments: services.comments }));
  mount('/api/store', quizRoutes({ allow, config: deps.config, quizzes: services.quizzes }));
  mount('/api/admin', quizResultRoutes({ allow, results: services.quizResults }));
  mount('/api/store', certificateRoutes({ allow, config: deps.config, certificates: services.certificates }));
  mount('/api/admin', certificateAdminRoutes({ allow, certificates: services.certificates }));
  mount('/api/store', teamRoutes({ allow, teams: services.teams }));
  mount('/api/store', transferRoutes({ allow, transfers: services.transfers }));
  mount('/api/store', subscriptionRoutes({ allow, config: deps.config, subscriptions: services.subscriptions }));
  mount('/api/store', subscriptionSeatRoutes({ allow, subscriptions: services.subscriptions }));
  mount('/api/store', paymentPlanRoutes({ allow, config: deps.config, paymentPlans: services.paymentPlans }));
  mount('/api/admin', subscriptionConsoleRoutes({ allow, actions: services.subscriptionConsole }));
  mount('/api/admin', subscriptionFigureRoutes({ allow, figures: services.subscriptionFigures }));
  mount(
    '/api/admin',
    purchaseActionRoutes({
      allow,
      lifecycle: services.lifecycle,
      transfers: services.transfers,
      teams: services.teams,
      receipts: services.receipts,
    }),
  );
  mount('/api/admin', teamAdminRoutes({ allow, teams: services.teams, support: services.teamSupport }));
  mount('/api/admin', personPurchaseRoutes({ allow, totals: services.purchaseTotals, comps: services.comps }));
  mount('/api/webhooks', webhookRoutes({ allow, stripe: services.stripeWebhooks }));
  mount(
    '/api/admin',
    adminExtraRoutes({ allow, dashboard: services.dashboard, tree: services.tree, coupons: services.coupons }),
  );
  mount('/api/admin', timelineRoutes({ allow, timeline: services.timeline, notes: services.staffNotes }));
  mount('/api/admin', pricingRoutes({ allow, simulator: services.simulator, scenarios: services.scenarios }));
  mount('/api/admin', listToolRoutes({ allow, bulk: services.bulk, saved: services.savedFilters }));
  mount('/api/admin', invoiceAdminRoutes({ allow, invoices: services.invoices }));
  mount(
    '/api/admin',
    adminRoutes({ admin: services.admin, exports: services.listExports, resources: ADMIN_RESOURCES, allow }),
  );
  mount('/oauth', oauthRoutes({ allow, devices: services.devices, limiter: services.limiter }));
  return root;
}

/** Builds the application without listening: the server and the tests both call it. */
export function createApp(deps: Deps, options: { dist?: typeof APP_DIST; services?: Services } = {}): Koa {
  const dist = options.dist ?? APP_DIST;
  const services = options.services ?? createServices(deps);
  // Behind N trusted proxies the client is the Nth address from the right of X-Forwarded-For; anything further
  // left was written by the client and is ignored (or it could dodge per-IP limits).
  const app = new Koa({ proxy: deps.config.TRUST_PROXY, maxIpsCount: deps.config.PROXY_HOPS });
  const router = createRouter(deps, services);
  // What fails after the response has started (a client gone mid-download) reaches Koa's 'error' event, not our
  // error middleware: a client leaving is routine; anything else is logged as JSON like every other error.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (CLIENT_GONE.has(error.code ?? '')) return;
    deps.logger.error({ err: error }, 'response failed');
  });

  app.use(securityHeaders(deps.config)); // first: every answer, errors included, carries them
  // Pages and JSON compressed as they go (brotli at a quick setting); built assets come compressed from the build.
  app.use(compress({ threshold: 1024, br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } }));
  app.use(jsonAsText()); // inside compression: the body is stringified once, not for its length and again to send
  app.use(requestContext(deps.logger));
  app.use(errorHandler());

  // API paths end here: a route, a 405 for a wrong method, or a JSON 404.
  // JSON only under /api: a cross-site HTML form cannot send it, so no form can sign a browser in or change
  // anything. The device flow under /oauth is form-encoded, as RFC 8628 says.
  // DELETE too: deleting an account carries its confirmation in the body.
  const jsonBody = bodyParser({
    enableTypes: ['json'],
    jsonLimit: '1mb',
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  }) as Koa.Middleware;
  const formBody = bodyParser({ enableTypes: ['form'], formLimit: '64kb' }) as Koa.Middleware;
  // Ten thousand nested arrays parse, then overflow whatever walks them: refused as invalid JSON instead.
  const checkedDepth = (ctx: Koa.Context, next: Koa.Next) => {
    if (nestsDeeperThan(ctx.request.body)) throw tooDeep();
    return next();
  };
  // The webhook under any spelling the router matches it by (any case, a trailing slash): a parsed body would leave
  // nothing for it to read.
  const takesRawBody = (ctx: Koa.Context) =>
    ctx.path.toLowerCase().startsWith(WEBHOOKS_PREFIX) &&
    router.match(ctx.path, ctx.method).pathAndMethod.some((layer) => layer.path === STRIPE_WEBHOOK_PATH);
  const handleApi = compose<Koa.ParameterizedContext>([
    // Webhooks read their raw body themselves: a signature covers the exact bytes.
    (ctx, next) =>
      takesRawBody(ctx)
        ? next()
        : ctx.path.toLowerCase().startsWith('/oauth/')
          ? formBody(ctx, next)
          : jsonBody(ctx, () => checkedDepth(ctx, next)),
    authenticate({
      sessions: services.sessions,
      devices: services.devices,
      viewAs: services.viewAs,
      config: deps.config,
    }) as Koa.Middleware,
    // Matched against the routes of the path's group alone, not the API's every route.
    routesByPath(router),
    router.allowedMethods() as Koa.Middleware,
  ]);
  app.use(async (ctx, next) => {
    if (!isApiPath(ctx.path.toLowerCase())) return next(); // the router matches /API/… too: so does the error model
    await handleApi(ctx, async () => {});
    if (ctx.status === 404 && ctx.body == null) throw notFound();
  });
  // The built-in test provider's hosted checkout stands for the provider's own site: outside the API, with no
  // session or CSRF of ours. It exists only while it is the provider: with Stripe, its pages would be free payments.
  if (services.payments === services.testProvider) {
    const provider = testProviderRoutes({
      allow,
      provider: services.testProvider,
      settle: (identifier) => services.checkouts.settleSession(identifier),
      refundSettled: async (settlement) =>
        services.lifecycle.refundSettled(await services.testProvider.accountId(), settlement),
      logger: deps.logger,
    });
    app.use(provider.routes());
    const subscriptions = testProviderSubscriptionRoutes({
      allow,
      subscriptions: services.testProvider.subscriptions,
      recordEvent: async (event) => services.subscriptions.recordEvent(await services.testProvider.accountId(), event),
      jsonBody: (ctx: Koa.Context, next: Koa.Next) => jsonBody(ctx, () => checkedDepth(ctx, next)),
      logger: deps.logger,
    });
    app.use(subscriptions.routes());
    app.use(
      testProviderCardRoutes({
        allow,
        subscriptions: services.testProvider.subscriptions,
        logger: deps.logger,
      }).routes(),
    );
  } else {
    app.use((ctx, next) =>
      isUnder(ctx.path.toLowerCase(), TEST_PROVIDER_PREFIX) ? Promise.reject(notFound()) : next(),
    );
  }
  app.use(serveSpa({ prefix: '/admin', root: dist.admin, name: 'console' }));
  app.use(seoRoutes({ config: deps.config, catalog: services.catalog, allow }).routes());
  app.use(siteIconRoutes({ allow, school: services.school.get, icons: siteIcons(services) }).routes());
  app.use(certificatePdfRoutes({ allow, certificates: services.certificates }).routes());
  // Public pages rendered on the server; their loads reach this same app in-process.
  let handler: ReturnType<Koa['callback']> | undefined;
  const page = storefrontPage({
    root: dist.storefront,
    config: deps.config,
    handler: () => (handler ??= app.callback()),
    caches: services.caches,
    school: services.school.get,
  });
  app.use(serveSpa({ prefix: '', root: dist.storefront, name: 'storefront', page }));
  return app;
}
