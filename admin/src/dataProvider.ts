import simpleRestProvider from 'ra-data-simple-rest';
import { HttpError, fetchUtils, type DataProvider } from 'react-admin';
import type { z } from 'zod';
import type { Dashboard } from '@contract/admin/schemas/dashboard';
import type * as AdminCommerce from '@contract/admin/schemas/commerce';
import type { ReorderBody } from '@contract/admin/schemas/learning';
import type { BulkOutcome, SavedFilterRecord, SavedFilterRequest } from '@contract/admin/schemas/list-tools';
import type { StaffNote, TimelinePage } from '@contract/admin/schemas/timeline';
import type { ScenarioRecord, ScenarioRun, Simulation } from '@contract/pricing-simulator/schemas';
import type * as Commerce from '@contract/commerce/schemas';
import type * as SubscriptionConsole from '@contract/commerce/subscriptions/console.schemas';
import type { SubscriptionFiguresAnswer } from '@contract/finance/subscription-figures';
import type { RecurringPricing } from '@contract/pricing-simulator/recurring';
import type { FinanceSummaryAnswer, PeriodQuery, TaxPeriod, TaxSummaryAnswer } from '@contract/finance/schemas';
import type { DisputeReportAnswer, RefundReportAnswer, ReportQuery } from '@contract/finance/schemas';
import type { PayoutBalance, PayoutRunAnswer } from '@contract/finance/payouts/schemas';
import type { MonthCloseRecord, NextMonthCloseAnswer } from '@contract/finance/month-close/schemas';
import type * as Reconciliation from '@contract/finance/reconciliation/schemas';
import type { BlockAnswer, EmailChanged, SignedOut, ViewAsStarted } from '@contract/identity/schemas';
import type { PersonEmailsPage, ResendAnswer } from '@contract/mail/schemas';
import type { AccountDeleted, PersonalDataExport } from '@contract/privacy/schemas';
import type { CertificateRecord } from '@contract/certificates/schemas';
import type { CommentRecord, TreeNode } from '@contract/learning/schemas';
import type { DataAnswer, ListAnswer, Wire } from '@contract/shared/wire';
import { withCsrf } from './csrf';
import { withImageUploads } from './media/imageUploads';
import { withSchool } from './school';
import type { Job } from './jobs/types';
import type { CaptionUpload, Video } from './videos/types';

const API = '/api/admin';

/**
 * Every request is same-origin with the session cookie, and echoes the CSRF cookie in X-CSRF-Token. Not exported:
 * the console reaches the API through the dataProvider's methods only.
 */
function httpClient(url: string, options: fetchUtils.Options = {}) {
  return fetchUtils.fetchJson(url, { ...options, headers: withCsrf(options.headers), credentials: 'same-origin' });
}

/** Whose timeline: a person's (users) or a purchase's. */
export type TimelineOf = 'users' | 'purchases';

/** What react-query hands a query function: its signal aborts the request once nobody waits for the answer. */
interface QueryOptions {
  signal?: AbortSignal;
}

/** A URL under /api/admin with each interpolated id URL-encoded: path`/purchases/${id}/refund`. */
function path(parts: TemplateStringsArray, ...ids: string[]) {
  return API + parts.reduce((url, part, i) => url + encodeURIComponent(ids[i - 1] ?? '') + part);
}

/** A GET of one of the console's own endpoints, its answer in react-admin's `{ data }` envelope. */
async function getAnswer<T>(url: string, query: Record<string, string>, { signal }: QueryOptions = {}) {
  const search = new URLSearchParams(query).toString();
  const { json } = await httpClient(search ? `${url}?${search}` : url, { signal });
  return { data: json as T };
}

/** A POST of one of the console's actions, with a JSON body (`{}` when it takes none): the API's answer as it is. */
async function post<T>(url: string, body: object = {}) {
  const { json } = await httpClient(url, { method: 'POST', body: JSON.stringify(body) });
  return json as T;
}

/** The console's endpoints beyond CRUD (react-admin's custom dataProvider methods). */
export interface ConsoleApi {
  /** POST /api/admin/outbox-emails/:id/retry: the API decides whether the email may be retried (409 if not failed). */
  retryOutboxEmail: (id: string) => Promise<{ data: { id: string; status: string } }>;
  /** POST /api/admin/jobs/:id/retry (admins): a failed job runs again, audited (409 if it is not failed). */
  retryJob: (id: string) => Promise<{ data: Job }>;
  /**
   * GET /api/admin/dashboard (api/src/admin/dashboard/dashboard.ts): the last `days` days' sales, money in one currency's minor
   * unit (the one sold most unless asked), UTC days.
   */
  getDashboard: (
    query: { days: number; currency?: string },
    options?: QueryOptions,
  ) => Promise<{ data: Wire<Dashboard> }>;
  /** GET /api/admin/finance/summary (api/src/finance/summary.ts): the split ledger over whole UTC days, at most 366. */
  getFinanceSummary: (
    period: Pick<PeriodQuery, 'from' | 'to'> & { currency?: string },
    options?: QueryOptions,
  ) => Promise<{ data: Wire<FinanceSummaryAnswer> }>;
  /** GET /api/admin/finance/tax-summary (api/src/finance/tax-report.ts): invoices' and credit notes' tax, `to` excluded. */
  getTaxSummary: (
    period: TaxPeriod & { currency?: string },
    options?: QueryOptions,
  ) => Promise<{ data: Wire<TaxSummaryAnswer> }>;
  /** GET /api/admin/reports/refunds (api/src/finance/reports.ts): a period's refunds by reason and product. */
  getRefundReport: (query: ReportQuery, options?: QueryOptions) => Promise<{ data: Wire<RefundReportAnswer> }>;
  /** GET /api/admin/reports/disputes (api/src/finance/reports.ts): open disputes at stake, and those opened per week. */
  getDisputeReport: (query: ReportQuery, options?: QueryOptions) => Promise<{ data: Wire<DisputeReportAnswer> }>;
  /** GET /api/admin/payouts/balances (api/src/finance/payouts/balances.ts): each recipient's money per currency. */
  getPayoutBalances: (options?: QueryOptions) => Promise<{ data: Wire<PayoutBalance>[] }>;
  /** GET /api/admin/reconciliation (api/src/finance/reconciliation/report.ts): the period matched to the processor. */
  getReconciliation: (
    period: { from: string; to: string },
    options?: QueryOptions,
  ) => Promise<{ data: Wire<Reconciliation.ReconciliationAnswer> }>;
  /** GET /api/admin/reconciliation/payouts: each processor payout of the period and how its transactions match. */
  getReconciliationPayouts: (
    period: { from: string; to: string },
    options?: QueryOptions,
  ) => Promise<{ data: Wire<Reconciliation.PayoutReconciliation>[] }>;
  /** POST /api/admin/reconciliation/import: the processor's transactions and payouts of the period, matched. */
  importReconciliation: (period: { from: string; to: string }) => Promise<{ data: Reconciliation.ImportAnswer }>;
  /** POST /api/admin/reconciliation/:id/recover: a missed event recovered through its webhook's code. */
  recoverReconciliation: (id: string) => Promise<{ data: { state: string } }>;
  /** GET /api/admin/month-closes/next: the month a close would freeze next, and its figures as they stand. */
  getNextMonthClose: () => Promise<Wire<NextMonthCloseAnswer>>;
  /** POST /api/admin/month-closes: the month closed and its figures frozen (409 with the rule it breaks otherwise). */
  closeMonth: (month: string) => Promise<Wire<MonthCloseRecord>>;
  /** POST /api/admin/payouts/run: the payable balances' payouts made, Stripe's sent (failed ones again). */
  runPayouts: () => Promise<{ data: PayoutRunAnswer }>;
  /** POST /api/admin/payouts/:id/mark-paid: a manual payout paid by hand, with its reference (409 once paid otherwise). */
  markPayoutPaid: (payoutId: string, reference: string) => Promise<{ data: { id: string; status: string } }>;
  /** POST /api/admin/coupons/generate (api/src/commerce/coupons/generator.ts): N coupons with fresh codes. */
  generateCoupons: (
    input: AdminCommerce.GenerateCouponsRequest,
  ) => Promise<ListAnswer<Wire<AdminCommerce.GeneratedCoupon>>>;
  /** POST /api/admin/purchases/:id/refund (api/src/commerce/purchases/action-routes.ts): no amount refunds all that is left. */
  refundPurchase: (purchaseId: string, input: Commerce.RefundRequest) => Promise<DataAnswer<Commerce.RefundResult>>;
  /** POST /api/admin/subscriptions/:id/cancel: now or at the period's end, with a reason. */
  cancelSubscription: (
    id: string,
    input: SubscriptionConsole.SubscriptionCancelRequest,
  ) => Promise<DataAnswer<SubscriptionConsole.SubscriptionActionResult>>;
  /** POST /api/admin/subscription-periods/:id/refund: a paid period's charge back, with a reason (and an end). */
  refundSubscriptionPeriod: (
    periodId: string,
    input: SubscriptionConsole.PeriodRefundRequest,
  ) => Promise<DataAnswer<SubscriptionConsole.SubscriptionActionResult>>;
  /** GET /api/admin/finance/subscriptions: MRR, subscribers, trials, churn and failed payments of a period. */
  getSubscriptionFigures: (
    period: { from: string; to: string },
    options?: QueryOptions,
  ) => Promise<{ data: Wire<SubscriptionFiguresAnswer> }>;
  /** POST /api/admin/purchases/:id/ban (admins only): ends the purchase's access for good. */
  banPurchase: (purchaseId: string, reason: string) => Promise<DataAnswer<Commerce.BanResult>>;
  /** POST /api/admin/purchases/:id/move: gives an individual purchase to another email at once (a COMPLETED transfer). */
  movePurchase: (purchaseId: string, email: string) => Promise<DataAnswer<Wire<Commerce.TransferView>>>;
  /**
   * POST /api/admin/purchases/:id/receipt (support and admins): the receipt again, with a new sign-in link, to the
   * payer (the charge's user). `requestKey` is the click's own: the same key again answers the email it sent.
   */
  sendReceiptAgain: (purchaseId: string, requestKey: string) => Promise<DataAnswer<Commerce.ReceiptAgainAnswer>>;
  /**
   * GET /api/admin/users/:id/purchase-totals (api/src/commerce/purchases/totals.ts): the person's lifetime paid, refunded
   * and net per currency, from the charges Finance lists, with counts.
   */
  getPurchaseTotals: (userId: string, options?: QueryOptions) => Promise<{ data: Wire<Commerce.PurchaseTotals> }>;
  /**
   * POST /api/admin/users/:id/comps (support and admins): gives the person the product (a comp: nothing paid, no
   * revenue) for a reason; 409 already-purchased, product-archived, product-draft, person-blocked or sold-out.
   */
  giveCourse: (userId: string, input: Commerce.CompRequest) => Promise<DataAnswer<Wire<Commerce.CompGiven>>>;
  /**
   * DELETE /api/admin/bulk-purchases/:teamId/members/:memberPurchaseId (support and admins): the member's seat
   * purchase ends (they lose access, keep their progress) and the seat is free again. A member other than the buyer
   * is emailed, and the invite link refuses them until the team's owner lets them back in.
   */
  revokeSeat: (teamPurchaseId: string, memberPurchaseId: string) => Promise<DataAnswer<Wire<Commerce.TeamView>>>;
  /** GET /api/admin/bulk-purchases/:id/members (api/src/commerce/teams/support.ts): every seat, ended ones too, and who is kept out. */
  getTeamRoster: (teamPurchaseId: string, options?: QueryOptions) => Promise<DataAnswer<Wire<Commerce.TeamRoster>>>;
  /** POST /api/admin/bulk-purchases/:id/seats: seats given without a charge (a comp), with the reason the audit log keeps. */
  addTeamSeats: (teamPurchaseId: string, input: Commerce.AddSeatsRequest) => Promise<DataAnswer<Commerce.SeatsAdded>>;
  /** POST /api/admin/bulk-purchases/:id/invite/rotate: a new invite link; the old one stops working at once. */
  rotateTeamInvite: (teamPurchaseId: string) => Promise<DataAnswer<Wire<Commerce.TeamView>>>;
  /** POST /api/admin/bulk-purchases/:id/kept-out/:userId/readmit: the invite link lets a removed member take a seat again. */
  readmitTeamMember: (teamPurchaseId: string, userId: string) => Promise<DataAnswer<Wire<Commerce.TeamView>>>;
  /** POST /api/admin/purchase-user-transfers/:id/cancel: an INITIATED or VERIFIED transfer; answers the fresh AVAILABLE one. */
  cancelTransfer: (transferId: string) => Promise<DataAnswer<Wire<Commerce.TransferView>>>;
  /**
   * POST /api/admin/comments/:id/hide (support and admins): learners no longer see the comment; its author still
   * does, with the reason. No reason is sent when none was given.
   */
  hideComment: (commentId: string, reason?: string) => Promise<DataAnswer<Wire<CommentRecord>>>;
  /** POST /api/admin/comments/:id/unhide (support and admins): everyone who may open the lesson sees it again. */
  unhideComment: (commentId: string) => Promise<DataAnswer<Wire<CommentRecord>>>;
  /**
   * POST /api/admin/certificates/:id/revoke (support and admins): for good, with the reason the public verification
   * page gives (1–500 characters); its PDF stops answering.
   */
  revokeCertificate: (certificateId: string, reason: string) => Promise<DataAnswer<Wire<CertificateRecord>>>;
  /** POST /api/admin/certificates/:id/name (support and admins): the name corrected, audited; its page says so. */
  correctCertificateName: (certificateId: string, name: string) => Promise<DataAnswer<Wire<CertificateRecord>>>;
  /** GET /api/admin/lessons/:lessonId/video (api/src/video/admin-routes.ts): the lesson's video, null when it has none. */
  getLessonVideo: (lessonId: string, options?: QueryOptions) => Promise<{ data: Video | null }>;
  /** POST /api/admin/videos/:id/retry: a failed video is queued again (409 video-not-failed otherwise). */
  retryVideo: (videoId: string) => Promise<{ data: Video }>;
  /** PUT /api/admin/videos/:id/captions/:language: WebVTT checked by the API (400 caption-invalid saying the line). */
  putVideoCaption: (videoId: string, language: string, caption: CaptionUpload) => Promise<{ data: Video }>;
  /** DELETE /api/admin/videos/:id/captions/:language */
  deleteVideoCaption: (videoId: string, language: string) => Promise<{ data: Video }>;
  /** POST /api/admin/users/:id/sign-out-everywhere (api/src/admin/identity-routes.ts): support and admins; staff accounts admins only. */
  signOutEverywhere: (userId: string) => Promise<{ data: SignedOut }>;
  /** POST /api/admin/users/:id/view-as (support and admins; not for staff accounts): the storefront, read-only, as them. */
  startViewAs: (userId: string, reason: string, minutes: number) => Promise<{ data: Wire<ViewAsStarted> }>;
  /** GET /api/admin/users/:id/emails (api/src/mail/person-emails.ts): what was sent to the person, newest first, no bodies. */
  getPersonEmails: (
    userId: string,
    page: { page: number; perPage: number },
    options?: QueryOptions,
  ) => Promise<{ data: Wire<PersonEmailsPage> }>;
  /**
   * POST /api/admin/users/:id/emails/:emailId/resend: a copy to their current address. `requestKey` is the click's
   * own: the same key again answers the copy it made (a double click sends one copy).
   */
  resendPersonEmail: (userId: string, emailId: string, requestKey: string) => Promise<{ data: Wire<ResendAnswer> }>;
  /** POST /api/admin/users/:id/block (support and admins; staff accounts admins only): signed out, no sign-in, no buying. */
  blockUser: (userId: string, reason: string) => Promise<{ data: Wire<BlockAnswer> }>;
  /** POST /api/admin/users/:id/unblock */
  unblockUser: (userId: string) => Promise<{ data: Wire<BlockAnswer> }>;
  /** POST /api/admin/users/:id/change-email: 409 `already-exists` on `email` when another account has it; signs them out. */
  changeUserEmail: (userId: string, email: string) => Promise<{ data: Wire<EmailChanged> }>;
  /**
   * GET /api/admin/users/:id/personal-data (api/src/privacy/routes.ts): everything held about the person, with the
   * file name the API gives it; audited. Staff accounts admins only.
   */
  getPersonalData: (userId: string) => Promise<{ data: Wire<PersonalDataExport>; filename: string }>;
  /** POST /api/admin/users/:id/delete-account: `confirm` is the person's email; 409 `account-is-staff` for staff. */
  deleteUserAccount: (userId: string, confirm: string) => Promise<{ data: Wire<AccountDeleted> }>;
  /**
   * GET /api/admin/users/:id/timeline or /api/admin/purchases/:id/timeline (api/src/admin/people/timeline.ts): everything
   * that happened to the person or the purchase, newest first, a page at a time.
   */
  getTimeline: (
    of: TimelineOf,
    id: string,
    page: { page: number; perPage: number },
    options?: QueryOptions,
  ) => Promise<{ data: Wire<TimelinePage> }>;
  /** POST /api/admin/users/:id/notes or /api/admin/purchases/:id/notes: an internal note, never shown to the person. */
  addNote: (of: TimelineOf, id: string, body: string) => Promise<{ data: Wire<StaffNote> }>;
  /** GET /api/admin/pricing/simulate (api/src/pricing-simulator/simulator.ts): the storefront's quote for that customer, and what it grants. */
  simulatePricing: (query: Record<string, string>, options?: QueryOptions) => Promise<{ data: Wire<Simulation> }>;
  /**
   * GET /api/admin/pricing/recurring: a membership's prices each interval, or a payment plan, beside one-time, priced
   * for the simulator's customer, country, regional price and coupon.
   */
  recurringPricing: (
    query: Record<string, string>,
    options?: QueryOptions,
  ) => Promise<{ data: Wire<RecurringPricing> }>;
  /** POST /api/admin/pricing-scenarios/save: the simulator's query under a name, today's answer expected. */
  savePricingScenario: (name: string, query: Record<string, string>) => Promise<{ data: Wire<ScenarioRecord> }>;
  /** POST /api/admin/pricing-scenarios/:id/run: priced again; `matches` false when the answer changed. */
  runPricingScenario: (id: string) => Promise<{ data: Wire<ScenarioRun> }>;
  /** POST /api/admin/pricing-scenarios/run: every scenario; the changed ones listed. */
  runAllPricingScenarios: () => Promise<{ data: { ran: number; changed: Wire<ScenarioRun>[] } }>;
  /** POST /api/admin/pricing-scenarios/:id/accept: the latest answer becomes the expected one (audited). */
  acceptPricingScenario: (id: string) => Promise<{ data: Wire<ScenarioRecord> }>;
  /** GET /api/admin/content-resources/:id/tree: the resource and everything under it, each level ordered by position. */
  getContentTree: (id: string, options?: QueryOptions) => Promise<{ data: Wire<TreeNode> }>;
  /** POST /api/admin/content-resources/:id/reorder: the parent's children (content ids), each exactly once, in their new order (204). */
  reorderContent: (parentId: string, childIds: z.input<typeof ReorderBody>['childIds']) => Promise<{ data: null }>;
  /**
   * POST /api/admin/content-resources/:id/children (api/src/learning/content-tree.ts): new content titled `title`, its
   * slug made from the title, linked under the parent at `position` (the end when absent); answers the new node.
   */
  addContentChild: (
    parentId: string,
    input: { type: string; title: string; position?: number },
  ) => Promise<DataAnswer<Wire<TreeNode>>>;
  /**
   * POST /api/admin/coupons/deactivate, /outbox-emails/resend, /jobs/retry (api/src/admin/lists/bulk-actions.ts): the
   * selected rows in one call; the answer says how many were done and which were skipped, and why.
   */
  bulkAction: (action: BulkActionName, ids: readonly string[]) => Promise<DataAnswer<BulkOutcome>>;
  /** GET /api/admin/saved-filters?resource=: the signed-in person's saved filters of that list, by name. */
  getSavedFilters: (resource: string, options?: QueryOptions) => Promise<ListAnswer<Wire<SavedFilterRecord>>>;
  /** POST /api/admin/saved-filters: the list's current filters and sort under a name (409 when the name is taken). */
  saveFilters: (input: SavedFilterRequest) => Promise<DataAnswer<Wire<SavedFilterRecord>>>;
  /** DELETE /api/admin/saved-filters/:id: one's own only. */
  deleteSavedFilters: (id: string) => Promise<DataAnswer<Wire<SavedFilterRecord>>>;
}

/** The console's bulk actions, by their API paths under /api/admin. */
export type BulkActionName = 'coupons/deactivate' | 'outbox-emails/resend' | 'jobs/retry';

export type ConsoleDataProvider = DataProvider & ConsoleApi;

/** The API speaks ra-data-simple-rest's contract; business rules stay on the server. */
export const dataProvider: ConsoleDataProvider = {
  ...withSchool(withImageUploads(simpleRestProvider(API, httpClient), httpClient, API), httpClient, API),
  retryOutboxEmail: async (id) => ({ data: await post(path`/outbox-emails/${id}/retry`) }),
  getTimeline: (of, id, { page, perPage }, options) =>
    getAnswer(path`/${of}/${id}/timeline`, { page: String(page), perPage: String(perPage) }, options),
  addNote: async (of, id, body) => ({ data: await post(path`/${of}/${id}/notes`, { body }) }),
  simulatePricing: (query, options) => getAnswer(path`/pricing/simulate`, query, options),
  recurringPricing: (query, options) => getAnswer(path`/pricing/recurring`, query, options),
  savePricingScenario: (name, query) => post(path`/pricing-scenarios/save`, { name, query }),
  runPricingScenario: (id) => post(path`/pricing-scenarios/${id}/run`),
  runAllPricingScenarios: () => post(path`/pricing-scenarios/run`),
  acceptPricingScenario: (id) => post(path`/pricing-scenarios/${id}/accept`),
  retryJob: async (id) => ({ data: await post(path`/jobs/${id}/retry`) }),
  getDashboard: ({ days, currency }, options) =>
    getAnswer(path`/dashboard`, { days: String(days), ...(currency ? { currency } : {}) }, options),
  getFinanceSummary: ({ from, to, currency }, options) =>
    getAnswer(path`/finance/summary`, { from, to, ...(currency ? { currency } : {}) }, options),
  getTaxSummary: ({ from, to, currency }, options) =>
    getAnswer(path`/finance/tax-summary`, { from, to, ...(currency ? { currency } : {}) }, options),
  getRefundReport: ({ from, to, currency }, options) =>
    getAnswer(path`/reports/refunds`, { from, to, currency }, options),
  getDisputeReport: ({ from, to, currency }, options) =>
    getAnswer(path`/reports/disputes`, { from, to, currency }, options),
  getPayoutBalances: async (options) =>
    (await getAnswer<{ data: Wire<PayoutBalance>[] }>(path`/payouts/balances`, {}, options)).data,
  runPayouts: () => post(path`/payouts/run`),
  getNextMonthClose: async () =>
    (await getAnswer<{ data: Wire<NextMonthCloseAnswer> }>(path`/month-closes/next`, {})).data.data,
  closeMonth: (month) => post(path`/month-closes`, { month }),
  getReconciliation: async (period, options) =>
    (await getAnswer<{ data: Wire<Reconciliation.ReconciliationAnswer> }>(path`/reconciliation`, period, options)).data,
  getReconciliationPayouts: async (period, options) =>
    (
      await getAnswer<{ data: Wire<Reconciliation.PayoutReconciliation>[] }>(
        path`/reconciliation/payouts`,
        period,
        options,
      )
    ).data,
  importReconciliation: (period) => post(path`/reconciliation/import`, period),
  recoverReconciliation: (id) => post(path`/reconciliation/${id}/recover`),
  markPayoutPaid: (payoutId, reference) => post(path`/payouts/${payoutId}/mark-paid`, { reference }),
  generateCoupons: (input) => post(path`/coupons/generate`, input),
  refundPurchase: (purchaseId, input) => post(path`/purchases/${purchaseId}/refund`, input),
  cancelSubscription: (id, input) => post(path`/subscriptions/${id}/cancel`, input),
  refundSubscriptionPeriod: (periodId, input) => post(path`/subscription-periods/${periodId}/refund`, input),
  getSubscriptionFigures: ({ from, to }, options) => getAnswer(path`/finance/subscriptions`, { from, to }, options),
  banPurchase: (purchaseId, reason) => post(path`/purchases/${purchaseId}/ban`, { reason }),
  movePurchase: (purchaseId, email) => post(path`/purchases/${purchaseId}/move`, { email }),
  sendReceiptAgain: (purchaseId, requestKey) => post(path`/purchases/${purchaseId}/receipt`, { requestKey }),
  getPurchaseTotals: (userId, options) => getAnswer(path`/users/${userId}/purchase-totals`, {}, options),
  giveCourse: (userId, input) => post(path`/users/${userId}/comps`, input),
  revokeSeat: async (teamPurchaseId, memberPurchaseId) => {
    const { json } = await httpClient(path`/bulk-purchases/${teamPurchaseId}/members/${memberPurchaseId}`, {
      method: 'DELETE',
    });
    return json as DataAnswer<Wire<Commerce.TeamView>>;
  },
  getTeamRoster: async (teamPurchaseId, options) =>
    (
      await getAnswer<DataAnswer<Wire<Commerce.TeamRoster>>>(
        path`/bulk-purchases/${teamPurchaseId}/members`,
        {},
        options,
      )
    ).data,
  addTeamSeats: (teamPurchaseId, input) => post(path`/bulk-purchases/${teamPurchaseId}/seats`, input),
  rotateTeamInvite: (teamPurchaseId) => post(path`/bulk-purchases/${teamPurchaseId}/invite/rotate`),
  readmitTeamMember: (teamPurchaseId, userId) =>
    post(path`/bulk-purchases/${teamPurchaseId}/kept-out/${userId}/readmit`),
  cancelTransfer: (transferId) => post(path`/purchase-user-transfers/${transferId}/cancel`),
  hideComment: (commentId, reason) => post(path`/comments/${commentId}/hide`, reason ? { reason } : {}),
  unhideComment: (commentId) => post(path`/comments/${commentId}/unhide`),
  revokeCertificate: (certificateId, reason) => post(path`/certificates/${certificateId}/revoke`, { reason }),
  correctCertificateName: (certificateId, name) => post(path`/certificates/${certificateId}/name`, { name }),
  getLessonVideo: async (lessonId, options) => {
    try {
      return await getAnswer<Video>(path`/lessons/${lessonId}/video`, {}, options);
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) return { data: null };
      throw error;
    }
  },
  retryVideo: async (videoId) => ({ data: await post(path`/videos/${videoId}/retry`) }),
  putVideoCaption: async (videoId, language, caption) => {
    const { json } = await httpClient(path`/videos/${videoId}/captions/${language}`, {
      method: 'PUT',
      body: JSON.stringify(caption),
    });
    return { data: json as Video };
  },
  deleteVideoCaption: async (videoId, language) => {
    const { json } = await httpClient(path`/videos/${videoId}/captions/${language}`, { method: 'DELETE' });
    return { data: json as Video };
  },
  signOutEverywhere: async (userId) => ({ data: await post(path`/users/${userId}/sign-out-everywhere`) }),
  startViewAs: async (userId, reason, minutes) => ({
    data: await post(path`/users/${userId}/view-as`, { reason, minutes }),
  }),
  getPersonEmails: (userId, { page, perPage }, options) =>
    getAnswer(path`/users/${userId}/emails`, { page: String(page), perPage: String(perPage) }, options),
  resendPersonEmail: async (userId, emailId, requestKey) => ({
    data: await post(path`/users/${userId}/emails/${emailId}/resend`, { requestKey }),
  }),
  blockUser: async (userId, reason) => ({ data: await post(path`/users/${userId}/block`, { reason }) }),
  unblockUser: async (userId) => ({ data: await post(path`/users/${userId}/unblock`) }),
  changeUserEmail: async (userId, email) => ({ data: await post(path`/users/${userId}/change-email`, { email }) }),
  getPersonalData: async (userId) => {
    const { json, headers } = await httpClient(path`/users/${userId}/personal-data`);
    const filename = /filename="([^"]+)"/.exec(headers.get('Content-Disposition') ?? '')?.[1] ?? 'personal-data.json';
    return { data: json as Wire<PersonalDataExport>, filename };
  },
  deleteUserAccount: async (userId, confirm) => {
    const { data } = await post<{ data: Wire<AccountDeleted> }>(path`/users/${userId}/delete-account`, { confirm });
    return { data };
  },
  getContentTree: (id, options) => getAnswer(path`/content-resources/${id}/tree`, {}, options),
  reorderContent: async (parentId, childIds) => {
    await post(path`/content-resources/${parentId}/reorder`, { childIds });
    return { data: null };
  },
  addContentChild: (parentId, input) => post(path`/content-resources/${parentId}/children`, input),
  bulkAction: (action, ids) => post(`${API}/${action}`, { ids }),
  getSavedFilters: async (resource, options) => {
    const { json } = await httpClient(`${path`/saved-filters`}?${new URLSearchParams({ resource })}`, options);
    return json as ListAnswer<Wire<SavedFilterRecord>>;
  },
  saveFilters: (input) => post(path`/saved-filters`, input),
  deleteSavedFilters: async (id) => {
    const { json } = await httpClient(path`/saved-filters/${id}`, { method: 'DELETE' });
    return json as DataAnswer<Wire<SavedFilterRecord>>;
  },
};

/**
 * react-query's `retry` for these queries: an answer from the API (a refusal, an error) is final, as it was before
 * react-query; only a request that got no answer (a dropped connection) is tried again, twice at most.
 */
export const retryUnanswered = (failures: number, error: unknown) => failures < 2 && !(error instanceof HttpError);
