import type { Clock } from './clock';
import type { Config } from './config';
import type { Db } from './db/connection';
import type { Logger } from './logger';
import { adminService } from './admin/records/service';
import { bulkActions } from './admin/lists/bulk-actions';
import { listExports } from './admin/lists/export';
import { savedFilters } from './admin/lists/saved-filters';
import { readCaches } from './cache/read-cache';
import { dashboardService } from './admin/dashboard/dashboard';
import { staffNotes } from './admin/people/staff-notes';
import { timelineService } from './admin/people/timeline';
import { builtInTax, taxSetupReader } from './tax/engine';
import { pricingScenarios } from './pricing-simulator/scenarios';
import { pricingSimulator } from './pricing-simulator/simulator';
import { financeExports } from './finance/exports';
import { taxReport } from './finance/tax-report';
import { financeReports } from './finance/reports';
import { financeSummary } from './finance/summary';
import { monthCloseService } from './finance/month-close/month-closes';
import { definePayoutJobs, payoutService } from './finance/payouts/payouts';
import { defineReconciliationJobs, reconciliationService } from './finance/reconciliation/reconciliation';
import { earningsService } from './finance/earnings/earnings';
import { contentTree } from './learning/content-tree';
import { learningService } from './learning/learning';
import { bookmarkService } from './learning/bookmarks';
import { searchService } from './search/search';
import { commentService } from './learning/comments';
import { quizAttempts } from './learning/quizzes/attempts';
import { quizResults } from './learning/quizzes/results';
import { replyEmails } from './learning/reply-emails/reply-emails';
import { defineReleaseEmailJob, releaseEmails } from './learning/drip/release-emails';
import { couponGenerator } from './commerce/coupons/generator';
import { quoteService } from './commerce/checkout/quotes';
import { checkoutService } from './commerce/checkout/checkout';
import { commerceLimits } from './commerce/checkout/limits';
import { myPurchases } from './commerce/purchases/my-purchases';
import { invoiceDocuments } from './invoices/documents';
import { earlierInvoices as earlierInvoicesService } from './invoices/earlier-charges';
import { billingProfiles } from './commerce/checkout/billing-profile';
import { testProvider } from './payments/test-provider';
import { subscriptionService } from './commerce/subscriptions/subscriptions';
import { defineDunningJobs } from './commerce/subscriptions/dunning';
import { paymentPlanService } from './commerce/payment-plans/payment-plans';
import { subscriptionConsole } from './commerce/subscriptions/console-actions';
import { subscriptionFigures } from './finance/subscription-figures';
import { stripeProvider } from './payments/stripe-provider';
import { stripeTax } from './payments/stripe-tax';
import type { PaymentProvider } from './payments/provider';
import { stripeEvents } from './commerce/provider-events/stripe-events';
import { purchaseLifecycle } from './commerce/purchases/lifecycle';
import { receiptAgain } from './commerce/purchases/receipt-again';
import { comps } from './commerce/purchases/comps';
import { purchaseTotals } from './commerce/purchases/totals';
import { teamService } from './commerce/teams/teams';
import { teamSupport } from './commerce/teams/support';
import { transferService } from './commerce/transfers/transfers';
import { catalogService } from './catalog/service';
import { salesOf } from './commerce/pricing/sales';
import { TEAM_TIERS } from './commerce/pricing/prices';
import { certificateService } from './certificates/certificates';
import { issueCertificate } from './certificates/queries';
import { issuingWithEmail } from './certificates/completion-email';
import { productPages } from './catalog/product-page';
import { workshopService } from './catalog/workshops/workshops';
import { defineWaitlistJobs, waitlistService } from './catalog/waitlist/waitlist';
import { healthService } from './health/service';
import { DELETE_IMAGE_JOB, imageAdmin } from './admin/images/image-admin';
import { personalData } from './privacy/personal-data';
import { schoolSettings } from './school/settings';
import { emailBrandOf } from './school/email-brand';
import { imageStore } from './media/images';
import { createStorage } from './media/storage';
import { lessonAttachments } from './learning/attachments/attachments';
import { defineDeletedLessonFilesJob, deletedLessonFiles } from './learning/attachments/deleted-lessons';
import { playbackService } from './video/playback';
import { mediaUrlKey } from './video/playback-key';
import { videoMedia } from './video/playback-media';
import { lessonVideos } from './video/playback-videos';
import { defineVideoProcessing } from './video/process-video';
import { videoUploads } from './video/upload';
import { videoAdmin as videoAdminService } from './video/video-admin';
import { deviceFlow } from './identity/devices/device-flow';
import { displayNames } from './identity/profile/display-name';
import { emailSignIn } from './identity/sign-in/email-sign-in';
import { githubSignIn } from './identity/sign-in/github';
import { userPrefs } from './identity/profile/prefs';
import { replyEmailOptOut } from './identity/profile/reply-emails';
import { signingKey } from './identity/signing-keys';
import { pruneExpired } from './identity/sign-in/prune';
import { viewAs } from './identity/staff/view-as';
import { rateLimiter } from './identity/rate-limit';
import { roleAdmin } from './identity/staff/role-admin';
import { sessions as sessionStore } from './identity/sign-in/sessions';
import { signOutEverywhere } from './identity/sign-in/sign-out-everywhere';
import { userBlocks } from './identity/staff/blocks';
import { emailChange } from './identity/profile/email-change';
import { personEmails } from './mail/person-emails';
import { defineRecurringJobs } from './jobs/recurring';
import { jobQueue } from './jobs/queue';
import { outbox as createOutbox } from './mail/outbox';
import { createTransport, type MailTransport } from './mail/transport';

export interface Deps {
  db: Db;
  /** The readiness check's own connection (api/src/db/open.ts); tests use `db`. */
  probe?: Db;
  config: Config;
  logger: Logger;
  clock: Clock;
  /** Defaults to SMTP (SMTP_URL) or the log; tests may pass their own. */
  mailTransport?: MailTransport;
  /** Defaults to Stripe when configured, else the built-in test provider; tests may pass another of the port's. */
  payments?: PaymentProvider;
}

/** The composition root: every service, built once from explicit dependencies. */
export function createServices(deps: Deps) {
  const { db, clock, config, logger } = deps;
  const caches = readCaches({ ttlMs: config.READ_CACHE_MS, clock });
  const limiter = rateLimiter(deps);
  const jobs = jobQueue({ db, logger, pollSeconds: config.JOB_POLL_SECONDS });
  const transport = deps.mailTransport ?? createTransport(config, logger);
  const school = schoolSettings({ db, caches });
  const outbox = createOutbox({
    db,
    clock,
    logger,
    transport,
    jobs,
    retrySeconds: config.EMAIL_RETRY_SECONDS,
    // Every email comes from the school as it is when the email is written.
    brand: async (conn) => emailBrandOf(await school.readWith(conn), config.publicUrl),
  });
  const sessions = sessionStore({ ...deps, caches });
  const limits = commerceLimits({ limiter, config });
  // Where the school collects tax, its rates, and which currencies' prices include tax (api/src/tax/).
  const taxSetup = taxSetupReader({ db, caches });
  const testPayments = testProvider(deps);
  // Stripe whenever its keys are configured; the built-in test provider otherwise.
  const stripe = config.STRIPE_SECRET_KEY ? stripeProvider({ db, config, taxSetup }) : null;
  const payments = deps.payments ?? stripe ?? testPayments;
  // Stripe Tax when Stripe takes the payments (its checkout computes the tax it charges); the rate table otherwise.
  const taxCalculator =
    stripe && payments === stripe ? stripeTax(stripe.stripe, taxSetup, caches) : builtInTax(taxSetup);
  const quotes = quoteService({ ...deps, caches, limits, tax: taxCalculator, taxSetup });
  const simulator = pricingSimulator({ db, clock, config, quotes });
  const lifecycle = purchaseLifecycle({ db, logger, outbox, provider: payments });
  const checkouts = checkoutService({
    db,
    clock,
    config,
    logger,
    outbox,
    quotes,
    provider: payments,
    refunds: lifecycle,
    limits,
  });
  const transfers = transferService({ db, clock, config, logger, outbox, provider: payments, limits });
  const workshops = workshopService({ db, clock, config, logger, outbox });
  const waitlist = waitlistService({ db, clock, config, logger, outbox, jobs, limiter });
  defineWaitlistJobs(jobs, waitlist);
  defineRecurringJobs(
    jobs,
    {
      prune: () => pruneExpired(deps),
      expireTransfers: () => transfers.expire(),
      expireCheckouts: () => checkouts.expireAbandoned(),
      sendWorkshopReminders: () => workshops.sendReminders(),
    },
    logger,
  );
  // Charges from before invoices get theirs in the background, queued at boot (background.ts) or by the CLI.
  const earlierInvoices = earlierInvoicesService({ db, jobs, logger });
  earlierInvoices.define();
  const tree = contentTree({ db, changed: caches.clearAll });
  // Media bytes live where every replica reaches them: MEDIA_DIR, or the S3 bucket when one is configured.
  const storage = createStorage(config);
  const mediaKey = mediaUrlKey({ db, secret: config.MEDIA_URL_SECRET });
  const videos = lessonVideos({ db, clock, caches, key: mediaKey });
  // The last lesson issues its certificate (or the list's catch-up does), and its email goes with it (once).
  const issuing = issuingWithEmail({ db, outbox, logger, publicUrl: config.publicUrl }, issueCertificate);
  const learning = learningService({ db, clock, tree, caches, videos, issueCertificate: issuing });
  // Scheduled release: each learner emailed once when a module or lesson opens for them (docs/domain.md §11).
  const releases = releaseEmails({
    db,
    clock,
    outbox,
    logger,
    outlineOf: learning.outlineOf,
    publicUrl: config.publicUrl,
  });
  defineReleaseEmailJob(jobs, releases);
  // A deleted lesson's files leave the storage (docs/domain.md §11).
  const deletedLessonAttachments = deletedLessonFiles({ db, storage, logger });
  defineDeletedLessonFilesJob(jobs, deletedLessonAttachments);
  const replyEmailLinks = replyEmailOptOut({
    db,
    key: signingKey({ db, name: 'email-unsubscribe' }),
    publicUrl: config.publicUrl,
  });
  const replies = replyEmails({
    db,
    jobs,
    outbox,
    optOut: replyEmailLinks,
    assertOpen: learning.assertOpen,
    publicUrl: config.publicUrl,
    delaySeconds: config.REPLY_EMAIL_DELAY_SECONDS,
  });
  const images = imageStore({ storage });
  // Lesson videos from the console and the command line, and the job that makes them playable (ffmpeg).
  defineVideoProcessing({ db, storage, jobs, logger, clock, config, changed: caches.clearAll });
  const videoAdmin = videoAdminService({
    db,
    storage,
    jobs,
    logger,
    changed: caches.clearAll,
    processHere: config.JOB_WORKERS,
  });
  const admin = adminService({ db, changed: caches.clearAll });
  // Recipients with a connected account are paid by Stripe transfers whenever Stripe is configured.
  const payouts = payoutService({ db, clock, logger, config, stripe: stripe?.stripe ?? null });
  definePayoutJobs(jobs, payouts);
  // The processor's word matched to the books; a missed event is recovered through its webhook's own code.
  const reconciliation = reconciliationService({
    db,
    clock,
    logger,
    provider: payments,
    recovery: {
      settleSession: (identifier) => checkouts.settleSession(identifier),
      refundedAtProvider: lifecycle.refundedAtProvider,
      disputeOpened: lifecycle.disputeOpened,
    },
  });
  defineReconciliationJobs(jobs, reconciliation, { clock, provider: payments });
  const subscriptions = subscriptionService({ db, clock, config, provider: payments, outbox, logger });
  defineDunningJobs(jobs, subscriptions.sweepDunning);
  // The test provider's own retries (dunning's, a card set) tell commerce as a real provider's webhook would.
  testPayments.subscriptions.deliverTo(async (event) =>
    subscriptions.recordEvent(await testPayments.accountId(), event),
  );
  return {
    /** The school's name, brand, contact and legal texts: every page, email and certificate reads them. */
    school,
    /** Tax: the school's setup (forget it after a change) and the calculator checkout asks. */
    tax: { setup: taxSetup, calculator: taxCalculator },
    /** The read caches (READ_CACHE_MS): the storefront's rendered public pages keep to them too. */
    caches,
    catalog: {
      ...catalogService({ ...deps, caches, salesOf, learning }),
      ...productPages({
        ...deps,
        caches,
        learning,
        transferWindowDays: config.TRANSFER_WINDOW_DAYS,
        salesOf,
        teamTiers: TEAM_TIERS,
      }),
    },
    workshops,
    waitlist,
    health: healthService(deps),
    admin,
    listExports: listExports({ db, admin, clock, logger }),
    bulk: bulkActions({ db, outbox, jobs, changed: caches.clearAll }),
    savedFilters: savedFilters({ db }),
    images,
    imageAdmin: imageAdmin({ db, images, jobs, logger, school, changed: caches.clearAll }),
    personalData: personalData({
      db,
      clock,
      jobs,
      sessions,
      school,
      deleteImageJob: DELETE_IMAGE_JOB,
      changed: caches.clearAll,
      provider: payments,
      logger,
    }),
    dashboard: dashboardService(deps),
    timeline: timelineService(deps),
    simulator,
    scenarios: pricingScenarios({ db, clock, simulator }),
    staffNotes: staffNotes(deps),
    financeExports: financeExports(deps),
    financeSummary: financeSummary(deps),
    financeTaxReport: taxReport(deps),
    financeReports: financeReports(deps),
    payouts,
    /** The processor's balance and payouts matched to the books (docs/domain.md §20). */
    reconciliation,
    /** An author's or contributor's own earnings and statements, from the payouts' balances. */
    earnings: earningsService({ db, config, payouts }),
    /** Closing a month: its figures frozen, later money booked in the open month, the accountant's workbook. */
    monthCloses: monthCloseService(deps),
    tree,
    learning,
    storage,
    playback: playbackService({ db, config, learning, videos }),
    videoMedia: videoMedia({ clock, caches, storage, learning, videos, key: mediaKey }),
    /** Files attached to lessons: the console's uploads, and short-lived download links for those who may open them. */
    attachments: lessonAttachments({ db, clock, storage, assertOpen: learning.assertOpen, key: mediaKey }),
    deletedLessonFiles: deletedLessonAttachments,
    videoAdmin,
    videoUploads: videoUploads({ config, storage, videos: videoAdmin, logger }),
    bookmarks: bookmarkService({ db, learning }),
    /** Quiz lessons: attempts graded under their limit, a pass completing the lesson; the console's figures. */
    quizzes: quizAttempts({ db, learning }),
    quizResults: quizResults({ db }),
    /** The storefront's search over products, courses and lessons (docs/domain.md §24). */
    search: searchService({ db, clock, learning, caches }),
    comments: commentService({ db, learning, limiter, config, replyEmails: replies }),
    replyEmails: replies,
    releaseEmails: releases,
    replyEmailLinks,
    certificates: certificateService({
      db,
      clock,
      config,
      learning,
      school,
      logger,
      issue: issuing,
      changed: caches.clearAll,
    }),
    coupons: couponGenerator(deps),
    quotes,
    payments,
    checkouts,
    lifecycle,
    receipts: receiptAgain({ db, clock, outbox, publicUrl: config.publicUrl }),
    comps: comps({ db, clock, outbox, publicUrl: config.publicUrl }),
    purchaseTotals: purchaseTotals(deps),
    /** Memberships' subscriptions: subscribing, the provider's events, a learner's list (docs/domain.md §22). */
    subscriptions,
    /** Staff's actions on subscriptions: end now or at the period's end, refund a period (docs/domain.md §22). */
    subscriptionConsole: subscriptionConsole({ db, clock, outbox, provider: payments }),
    /** The Finance page's recurring revenue: MRR, subscribers, trials, churn, failed payments (docs/domain.md §22). */
    subscriptionFigures: subscriptionFigures({ db, clock }),
    /** Courses bought in instalments (docs/domain.md §23). */
    paymentPlans: paymentPlanService({ db, clock, config, provider: payments }),
    teams: teamService({ db, config, outbox }),
    teamSupport: teamSupport({ db }),
    transfers,
    stripeWebhooks: stripeEvents({
      db,
      logger,
      stripe: stripe && { provider: stripe, webhookSecret: config.STRIPE_WEBHOOK_SECRET! },
      checkouts,
      lifecycle,
      subscriptions,
    }),
    testProvider: testPayments,
    purchases: myPurchases(deps),
    invoices: invoiceDocuments(deps),
    earlierInvoices,
    billing: billingProfiles({ db }),
    limiter,
    outbox,
    jobs,
    sessions,
    emailSignIn: emailSignIn({ db, clock, config, outbox, limiter, sessions }),
    github: githubSignIn({ db, clock, config, sessions }),
    devices: deviceFlow({ db, clock, config, limiter }),
    signOut: signOutEverywhere({ db, sessions }),
    blocks: userBlocks({ db, sessions, changed: caches.clearAll }),
    emailChange: emailChange({ db, outbox, sessions, publicUrl: config.publicUrl, changed: caches.clearAll }),
    personEmails: personEmails({ db, outbox }),
    viewAs: viewAs(deps),
    prefs: userPrefs(deps),
    roles: roleAdmin({ db, changed: caches.clearAll }),
    displayNames: displayNames({ db, changed: caches.clearAll }),
    prune: () => pruneExpired(deps),
  };
}

export type Services = ReturnType<typeof createServices>;
