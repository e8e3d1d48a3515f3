import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../api/src/app';
import { DeviceAccessToken } from '../support/models';
import { POLICY, type Policy } from '../../api/src/identity/http/policy';
import type { Role } from '../../api/src/shared/roles';
import { hashSecret, newSecret } from '../../api/src/identity/secrets';
import { sessions } from '../../api/src/identity/sign-in/sessions';
import { createServices } from '../../api/src/services';
import { createUser } from '../../seeds/factories';
import { testApp, testDeps } from '../support/app';
import { useTestDatabase } from '../support/db';

type Expected = 'public' | 'public or device' | 'signed-in' | 'signed-in or device' | readonly Role[];

const STAFF = ['support', 'finance'] as const;
const READERS = [...STAFF, 'contributor'] as const;

/** Who may call each route outside the console's resources. Adding a route means adding it here, deliberately. */
const EXPECTED: Record<string, Expected> = {
  'GET /api/health': 'public',
  'GET /api/health/live': 'public',
  'GET /api/health/ready': 'public',
  'GET /.well-known/security.txt': 'public',
  'GET /api/store/products': 'public',
  'GET /api/store/products/:id/quote': 'public',
  'GET /api/store/products/:id/schedule': 'public',
  'GET /api/store/products/:id/calendar.ics': 'signed-in',
  'POST /api/store/products/:id/waitlist': 'public',
  'POST /api/store/waitlist/leave': 'public',
  'POST /api/store/unsubscribe/replies': 'public',
  'GET /api/store/products/:slugOrId': 'public',
  'GET /api/store/owned-products': 'signed-in',
  'GET /api/store/workshops': 'signed-in',
  'GET /api/store/workshops/:file': 'signed-in',
  'GET /api/store/certificates': 'signed-in',
  'GET /api/store/certificates/:id': 'public',
  'GET /api/store/certificates/:id/mine': 'signed-in',
  'PUT /api/store/certificates/:id/name': 'signed-in',
  'PUT /api/store/me/name': 'signed-in',
  'PUT /api/store/me/time-zone': 'signed-in',
  'GET /api/store/me/export': 'signed-in',
  'DELETE /api/store/me': 'signed-in',
  'POST /api/store/checkout': 'public',
  'GET /api/store/checkouts/:id': 'public',
  'POST /api/webhooks/stripe': 'public',
  'GET /api/store/learning': 'signed-in or device',
  'GET /api/store/search': 'public',
  'GET /api/store/courses/:course': 'public or device',
  'GET /api/store/courses/:course/lessons/:lesson': 'public or device',
  'GET /api/store/courses/:course/next': 'signed-in or device',
  'GET /api/store/courses/:course/modules/:moduleId/progress': 'signed-in or device',
  'POST /api/store/courses/:course/modules/:moduleId/reset': 'signed-in or device',
  'PUT /api/store/progress/lessons/:lessonId': 'signed-in or device',
  'DELETE /api/store/progress/lessons/:lessonId': 'signed-in or device',
  'GET /api/store/bookmarks': 'signed-in',
  'PUT /api/store/bookmarks/:lessonId': 'signed-in',
  'DELETE /api/store/bookmarks/:lessonId': 'signed-in',
  'GET /api/store/lessons/:lessonId/comments': 'public or device',
  'POST /api/store/lessons/:lessonId/comments': 'signed-in',
  'GET /api/store/lessons/:lessonId/quiz': 'signed-in',
  'POST /api/store/lessons/:lessonId/quiz/attempts': 'signed-in',
  'PATCH /api/store/comments/:id': 'signed-in',
  'DELETE /api/store/comments/:id': 'signed-in',
  'GET /api/store/teams': 'signed-in',
  'GET /api/store/teams/:id': 'signed-in',
  'POST /api/store/teams/:id/claim': 'signed-in',
  'DELETE /api/store/teams/:id/members/:memberId': 'signed-in',
  'POST /api/store/teams/:id/revoked/:userId/readmit': 'signed-in',
  'POST /api/store/teams/:id/invite/reset': 'signed-in',
  'GET /api/store/invites/:id': 'public',
  'GET /api/store/transfers/:id/preview': 'public',
  'POST /api/store/invites/:id/redeem': 'signed-in',
  'GET /api/store/purchases/:id/transfer': 'signed-in',
  'POST /api/store/purchases/:id/transfer': 'signed-in',
  'POST /api/store/transfers/:id/cancel': 'signed-in',
  'GET /api/store/transfers/:id': 'signed-in',
  'POST /api/store/transfers/:id/verify': 'signed-in',
  'POST /api/store/transfers/:id/accept': 'signed-in',
  'POST /api/store/subscriptions': 'signed-in',
  'GET /api/store/subscriptions': 'signed-in',
  'POST /api/store/subscriptions/:id/cancel': 'signed-in',
  'POST /api/store/subscriptions/:id/resume': 'signed-in',
  'GET /api/store/subscriptions/:id/billing': 'signed-in',
  'POST /api/store/subscriptions/:id/switch': 'signed-in',
  'GET /api/store/subscriptions/:id/payment-method': 'signed-in',
  'POST /api/store/payment-plans': 'signed-in',
  'POST /api/store/payment-plans/quote': 'public',
  'GET /api/store/subscriptions/:id/seats': 'signed-in',
  'GET /api/store/subscriptions/:id/seats/quote': 'signed-in',
  'POST /api/store/subscriptions/quote': 'signed-in',
  'POST /api/store/subscriptions/:id/seats': 'signed-in',
  'POST /api/store/subscription-seats/:code': 'signed-in',
  'GET /api/store/billing': 'signed-in',
  'PUT /api/store/billing': 'signed-in',
  'GET /api/store/purchases': 'signed-in',
  'GET /api/store/invoices': 'signed-in',
  'GET /api/store/invoices/:id': 'signed-in',
  'GET /api/store/invoices/:id.pdf': 'signed-in',
  'PUT /api/store/invoices/:id/buyer': 'signed-in',
  'GET /api/store/earnings': 'signed-in',
  'GET /api/store/earnings/statements/:month.csv': 'signed-in',
  'GET /api/store/earnings/statements/:month.pdf': 'signed-in',
  'POST /api/store/auth/email': 'public',
  'POST /api/store/auth/email/consume': 'public',
  'POST /api/store/auth/sign-out': 'signed-in',
  'POST /api/store/auth/sign-out-everywhere': 'signed-in',
  'GET /api/store/auth/providers': 'public',
  'GET /api/store/auth/github': 'public',
  'GET /api/store/auth/github/callback': 'public',
  'GET /api/store/me': 'signed-in or device',
  'POST /api/store/device': 'signed-in',
  'POST /api/store/device/approve': 'signed-in',
  'POST /api/store/device/deny': 'signed-in',
  'GET /api/store/devices': 'signed-in',
  'DELETE /api/store/devices/:id': 'signed-in',
  'GET /api/store/prefs': 'signed-in or device',
  'PUT /api/store/prefs': 'signed-in or device',
  'POST /api/admin/outbox-emails/:id/retry': ['support'],
  'POST /api/admin/jobs/:id/retry': [],
  'POST /api/admin/coupons/deactivate': ['support'],
  'POST /api/admin/outbox-emails/resend': ['support'],
  'POST /api/admin/jobs/retry': [],
  'GET /api/admin/saved-filters': READERS,
  'POST /api/admin/saved-filters': READERS,
  'DELETE /api/admin/saved-filters/:id': READERS,
  'POST /api/admin/users/:id/sign-out-everywhere': ['support'],
  'GET /api/admin/users/:id/emails': ['support'],
  'POST /api/admin/users/:id/emails/:emailId/resend': ['support'],
  'POST /api/admin/users/:id/block': ['support'],
  'POST /api/admin/users/:id/unblock': ['support'],
  'POST /api/admin/users/:id/change-email': ['support'],
  'GET /api/admin/users/:id/personal-data': ['support'],
  'POST /api/admin/users/:id/delete-account': ['support'],
  'GET /api/admin/users/:id/purchase-totals': STAFF,
  'POST /api/admin/users/:id/comps': ['support'],
  'PUT /api/admin/products/:id/image': ['support'],
  'GET /api/admin/school': ['admin'],
  'GET /api/admin/invoices/:id.pdf': ['finance'],
  'PUT /api/admin/school': ['admin'],
  'PUT /api/admin/school/logo': ['admin'],
  'DELETE /api/admin/school/logo': ['admin'],
  'GET /api/store/school': 'public',
  'DELETE /api/admin/products/:id/image': ['support'],
  'PUT /api/admin/users/:id/avatar': ['support'],
  'DELETE /api/admin/users/:id/avatar': ['support'],
  // Lesson videos: tus uploads (HEAD too, which the walk leaves out) and the videos themselves.
  'POST /api/admin/uploads/videos': ['support', 'contributor'],
  'PATCH /api/admin/uploads/videos/:uploadId': ['support', 'contributor'],
  'DELETE /api/admin/uploads/videos/:uploadId': ['support', 'contributor'],
  'GET /api/admin/videos': READERS,
  'GET /api/admin/videos/export.csv': READERS,
  'GET /api/admin/videos/:id': READERS,
  'GET /api/admin/videos/:id/poster.jpg': READERS,
  'GET /api/admin/lessons/:lessonId/video': READERS,
  'POST /api/admin/videos/:id/retry': ['support', 'contributor'],
  'DELETE /api/admin/videos/:id': ['support', 'contributor'],
  'PUT /api/admin/videos/:id/captions/:language': ['support', 'contributor'],
  'DELETE /api/admin/videos/:id/captions/:language': ['support', 'contributor'],
  'GET /media/images/:key': 'public or device',
  // A lesson's downloads: the console's files, the reader's links, the signed link itself.
  'GET /api/admin/lessons/:lessonId/attachments': READERS,
  'POST /api/admin/lessons/:lessonId/attachments': ['support', 'contributor'],
  'PUT /api/admin/lessons/:lessonId/attachments/order': ['support', 'contributor'],
  'DELETE /api/admin/lesson-attachments/:id': ['support', 'contributor'],
  'GET /api/store/lessons/:lessonId/attachments': 'public or device',
  'GET /media/attachments/:token/:name': 'public or device',
  'GET /media/videos/:token/*file': 'public or device',
  'PUT /api/store/lessons/:lessonId/position': 'signed-in or device',
  'GET /api/admin/dashboard': STAFF,
  'GET /api/admin/users/:id/timeline': STAFF,
  'GET /api/admin/purchases/:id/timeline': STAFF,
  'POST /api/admin/users/:id/notes': STAFF,
  'POST /api/admin/purchases/:id/notes': STAFF,
  'GET /api/admin/pricing/simulate': STAFF,
  'GET /api/admin/pricing/recurring': STAFF,
  'POST /api/admin/users/:id/view-as': ['support'],
  'POST /api/store/view-as/end': 'public',
  'POST /api/admin/pricing-scenarios/save': STAFF,
  'POST /api/admin/pricing-scenarios/run': STAFF,
  'POST /api/admin/pricing-scenarios/:id/run': STAFF,
  'POST /api/admin/pricing-scenarios/:id/accept': STAFF,
  'GET /api/admin/content-resources/:id/tree': READERS,
  'POST /api/admin/content-resources/:id/reorder': ['support', 'contributor'],
  'POST /api/admin/content-resources/:id/children': ['support', 'contributor'],
  'POST /api/admin/coupons/generate': ['support'],
  'POST /api/admin/purchases/:id/refund': ['support'],
  'POST /api/admin/purchases/:id/ban': [],
  'POST /api/admin/subscriptions/:id/cancel': ['support', 'finance'],
  'POST /api/admin/subscription-periods/:id/refund': ['finance'],
  'POST /api/admin/purchases/:id/move': ['support'],
  'POST /api/admin/purchases/:id/receipt': ['support'],
  'POST /api/admin/comments/:id/hide': ['support'],
  'GET /api/admin/quizzes/:lessonId/results': ['support'],
  'GET /api/admin/quizzes/:lessonId/results.csv': ['support'],
  'POST /api/admin/certificates/:id/revoke': ['support'],
  'POST /api/admin/certificates/:id/name': ['support'],
  'GET /api/admin/exports/charges.csv': ['finance'],
  'GET /api/admin/exports/split-lines.csv': ['finance'],
  'GET /api/admin/exports/recipients.csv': ['finance'],
  'GET /api/admin/finance/summary': ['finance'],
  'GET /api/admin/finance/tax-summary': ['finance'],
  'GET /api/admin/finance/subscriptions': ['finance'],
  'GET /api/admin/finance/tax-report.csv': ['finance'],
  'GET /api/admin/reports/refunds': ['support', 'finance'],
  'GET /api/admin/reports/refunds.csv': ['support', 'finance'],
  'GET /api/admin/reports/disputes': ['support', 'finance'],
  'GET /api/admin/payouts/balances': ['finance'],
  'POST /api/admin/payouts/run': ['finance'],
  'POST /api/admin/payouts/:id/mark-paid': ['finance'],
  'GET /api/admin/reconciliation': ['finance'],
  'GET /api/admin/reconciliation/payouts': ['finance'],
  'POST /api/admin/reconciliation/import': ['finance'],
  'POST /api/admin/reconciliation/:id/recover': ['finance'],
  'POST /api/admin/month-closes': ['finance'],
  'GET /api/admin/month-closes/next': ['finance'],
  'GET /api/admin/month-closes/:id/export.xlsx': ['finance'],
  'POST /api/admin/comments/:id/unhide': ['support'],
  'POST /api/admin/purchase-user-transfers/:id/cancel': ['support'],
  'DELETE /api/admin/bulk-purchases/:id/members/:memberId': ['support'],
  'GET /api/admin/bulk-purchases/:id/members': ['support', 'finance'],
  'POST /api/admin/bulk-purchases/:id/seats': ['support'],
  'POST /api/admin/bulk-purchases/:id/invite/rotate': ['support'],
  'POST /api/admin/bulk-purchases/:id/kept-out/:userId/readmit': ['support'],
  'POST /oauth/device/code': 'public',
  'POST /oauth/token': 'public',
  'GET /oauth/userinfo': 'signed-in or device',
};

/**
 * The console's resources: who reads, who writes, and which operations exist
 * (C create, U update, D delete; every resource has list and show).
 */
const CONSOLE: Record<string, { read: readonly Role[]; write?: readonly Role[]; ops: string }> = {
  products: { read: STAFF, write: ['support'], ops: 'CUD' },
  prices: { read: STAFF, write: ['support'], ops: 'CU' },
  'upgradable-products': { read: STAFF, write: ['support'], ops: 'CD' },
  'workshop-sessions': { read: STAFF, write: ['support'], ops: 'CUD' },
  'waitlist-entries': { read: ['support'], write: ['support'], ops: 'D' },
  'product-content-resources': { read: READERS, write: ['support'], ops: 'CUD' },
  'merchant-accounts': { read: STAFF, write: ['support'], ops: 'U' },
  'merchant-products': { read: STAFF, write: ['support'], ops: 'U' },
  'merchant-prices': { read: STAFF, write: ['support'], ops: 'U' },
  'merchant-customers': { read: STAFF, write: ['support'], ops: 'U' },
  'merchant-coupons': { read: STAFF, write: ['support'], ops: 'U' },
  'merchant-sessions': { read: STAFF, write: ['support'], ops: 'U' },
  'merchant-charges': { read: STAFF, write: ['support'], ops: 'U' },
  'merchant-refunds': { read: STAFF, ops: '' },
  'merchant-disputes': { read: STAFF, ops: '' },
  coupons: { read: STAFF, write: ['support'], ops: 'CUD' },
  purchases: { read: STAFF, ops: '' },
  'bulk-purchases': { read: STAFF, ops: '' },
  'purchase-user-transfers': { read: STAFF, ops: '' },
  subscriptions: { read: STAFF, ops: '' },
  'subscription-periods': { read: STAFF, ops: '' },
  'payment-plans': { read: STAFF, write: ['support'], ops: 'CU' },
  'product-revenue-splits': { read: STAFF, write: ['finance'], ops: 'CUD' },
  payouts: { read: ['finance'], write: ['finance'], ops: '' },
  'payout-recipients': { read: ['finance'], write: ['finance'], ops: 'CUD' },
  'month-closes': { read: ['finance'], write: ['finance'], ops: '' },
  'pricing-scenarios': { read: STAFF, write: STAFF, ops: 'D' },
  'tax-rates': { read: ['finance'], write: [], ops: 'CUD' },
  'tax-registrations': { read: ['finance'], write: [], ops: 'CD' },
  users: { read: STAFF, write: ['support'], ops: 'CUD' },
  accounts: { read: ['support'], write: ['support'], ops: 'D' },
  sessions: { read: ['support'], write: ['support'], ops: 'D' },
  'verification-tokens': { read: ['support'], write: ['support'], ops: 'D' },
  'device-verifications': { read: ['support'], write: ['support'], ops: 'D' },
  'device-access-tokens': { read: ['support'], write: ['support'], ops: 'D' },
  'user-prefs': { read: ['support'], ops: '' },
  'outbox-emails': { read: ['support'], ops: '' },
  jobs: { read: [], ops: '' },
  'content-resources': { read: READERS, write: ['support', 'contributor'], ops: 'CUD' },
  'content-resource-resources': { read: READERS, write: ['support', 'contributor'], ops: 'CUD' },
  'lesson-progress': { read: ['support'], ops: '' },
  'quiz-attempts': { read: ['support'], ops: '' },
  comments: { read: ['support'], ops: '' },
  bookmarks: { read: ['support'], ops: '' },
  certificates: { read: ['support'], ops: '' },
  'audit-logs': { read: STAFF, ops: '' },
  invoices: { read: ['finance'], write: [], ops: '' },
};

for (const [name, { read, write, ops }] of Object.entries(CONSOLE)) {
  EXPECTED[`GET /api/admin/${name}`] = read;
  EXPECTED[`GET /api/admin/${name}/:id`] = read;
  EXPECTED[`GET /api/admin/${name}/export.csv`] = read;
  if (ops.includes('C')) EXPECTED[`POST /api/admin/${name}`] = write!;
  if (ops.includes('U')) EXPECTED[`PUT /api/admin/${name}/:id`] = write!;
  if (ops.includes('D')) EXPECTED[`DELETE /api/admin/${name}/:id`] = write!;
}

function describePolicy(policy: Policy): Expected {
  if (policy.kind === 'public') return policy.bearer ? 'public or device' : 'public';
  if (policy.kind === 'signed-in') return policy.bearer ? 'signed-in or device' : 'signed-in';
  return [...policy.roles].sort();
}

type Caller = 'signed out' | 'device' | Role;
const CALLERS: Caller[] = ['signed out', 'device', 'learner', 'contributor', 'finance', 'support', 'admin'];

/** What the table says a caller gets: through, 401 or 403. */
function verdict(expected: Expected, caller: Caller): 'through' | 401 | 403 {
  if (caller === 'device')
    return expected === 'signed-in or device' || expected === 'public or device' ? 'through' : 403;
  if (expected === 'public' || expected === 'public or device') return 'through';
  if (caller === 'signed out') return 401;
  if (typeof expected === 'string') return 'through';
  return caller === 'admin' || expected.includes(caller) ? 'through' : 403;
}

describe('route policies', () => {
  const database = useTestDatabase();
  let routes: { key: string; method: string; path: string; policy?: Policy }[];

  beforeAll(() => {
    const deps = testDeps(database().db);
    const router = createRouter(deps, createServices(deps));
    routes = router.stack.flatMap((layer) =>
      layer.methods
        .filter((m) => m !== 'HEAD')
        .map((method) => {
          const policy = layer.stack.find((m) => POLICY in m) as unknown as { [POLICY]: Policy } | undefined;
          return { key: `${method} ${String(layer.path)}`, method, path: String(layer.path), policy: policy?.[POLICY] };
        }),
    );
  });

  it('declares a policy on every route', () => {
    expect(routes.filter((r) => !r.policy).map((r) => r.key)).toEqual([]);
  });

  it('declares exactly the policies of the table', () => {
    const declared = Object.fromEntries(routes.map((r) => [r.key, describePolicy(r.policy!)]));
    const table = Object.fromEntries(
      Object.entries(EXPECTED).map(([k, v]) => [k, typeof v === 'string' ? v : [...v].sort()]),
    );
    expect(declared).toEqual(table);
  });

  it('answers 401 signed out, 403 for the wrong role or a device token, and lets the rest through', async () => {
    const db = database().db;
    const app = testApp(db);
    const store = sessions({ db, clock: { now: () => new Date() } });
    const users = Object.fromEntries(
      await Promise.all(
        (['learner', 'contributor', 'finance', 'support', 'admin'] as Role[]).map(
          async (role) => [role, await createUser(db, { roles: [role] })] as const,
        ),
      ),
    );
    const deviceUser = await createUser(db);
    const deviceToken = newSecret();
    await DeviceAccessToken.query(db).insert({
      token: hashSecret(deviceToken),
      userId: deviceUser.id,
      clientId: 'test',
    });

    const mismatches: string[] = [];
    // One caller's requests in turn (signing out everywhere ends their other sessions), the callers side by side.
    async function walk(caller: Caller): Promise<void> {
      for (const { key, method, path } of routes) {
        const id = path.startsWith('/api/admin/audit-logs') ? '1' : '00000000-0000-4000-8000-000000000000';
        let req = request(app)[method.toLowerCase() as 'get'](path.replace(':id', id));
        if (caller === 'device') req = req.set('Authorization', `Bearer ${deviceToken}`);
        else if (caller !== 'signed out') {
          const session = await store.create(db, users[caller]!.id, 'policy test', 'email'); // a fresh one: sign-out ends it
          req = req.set('Cookie', `lp_session=${session.token}`).set('X-CSRF-Token', session.csrfToken);
        }
        if (method !== 'GET') req = req.send({});
        const { status, body } = await req;
        const expected = verdict(EXPECTED[key]!, caller);
        // Through the policy, a route may still refuse by its own rule (a media link that is not valid): only the
        // policy's own answers, unauthenticated and forbidden, say the policy stopped the caller.
        const stopped = (status === 401 || status === 403) && ['unauthenticated', 'forbidden'].includes(body?.code);
        const ok = expected === 'through' ? !stopped && status < 500 : status === expected && stopped;
        if (!ok) mismatches.push(`${key} as ${caller}: got ${status}, expected ${expected}`);
      }
    }
    await Promise.all(CALLERS.map(walk));
    expect(mismatches.sort()).toEqual([]);
  }, 120_000); // every route, as every kind of caller
});
