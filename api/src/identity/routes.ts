import Router from '@koa/router';
import type { Config } from '../config';
import { userOf, authOf } from './http/caller';
import {
  OAUTH_STATE_COOKIE,
  clearOAuthStateCookie,
  clearSessionCookies,
  setOAuthStateCookie,
  setSessionCookies,
} from '../http/auth';
import { networkOf, type RateLimiter } from './rate-limit';
import type { Policies } from './http/policy';
import type { DeviceFlow } from './devices/device-flow';
import type { EmailSignIn } from './sign-in/email-sign-in';
import { GitHubSignInError, type GitHubSignIn } from './sign-in/github';
import type { UserPrefsService } from './profile/prefs';
import { AppError } from '../shared/errors';
import { IdParam } from '../http/params';
import {
  ConsumeSignInLinkBody,
  PrefsQuery,
  PutPrefsBody,
  RequestSignInLinkBody,
  UserCodeBody,
  type DeviceDecision,
  type DevicesAnswer,
  type MeAnswer,
  type PrefsAnswer,
  type SignedIn,
  type SignInLinkSent,
  type SignInProviders,
} from './schemas';
import type { Sessions } from './sign-in/sessions';
import type { SignOutEverywhere } from './sign-in/sign-out-everywhere';
import { publicUser } from './profile/users';
import type { ViewAs } from './staff/view-as';

interface Deps {
  allow: Policies;
  limiter: RateLimiter;
  config: Config;
  emailSignIn: EmailSignIn;
  github: GitHubSignIn;
  sessions: Sessions;
  devices: DeviceFlow;
  prefs: UserPrefsService;
  signOut: SignOutEverywhere;
  viewAs: ViewAs;
  /** Whether someone is paid from revenue splits (finance answers it; the storefront then links their earnings). */
  earnings: { isPayee(userId: string): Promise<boolean> };
  /** Whether someone has subscribed to a membership (commerce answers it; the storefront then links the list). */
  subscriptions: { hasAny(userId: string): Promise<boolean> };
}

/** The storefront's identity endpoints under /api/store. */
export function identityRoutes({
  allow,
  config,
  emailSignIn,
  github,
  sessions,
  devices,
  prefs,
  limiter,
  signOut,
  viewAs,
  earnings,
  subscriptions,
}: Deps) {
  const router = new Router();

  router.post('/auth/email', allow.public(), async (ctx) => {
    const body = RequestSignInLinkBody.parse(ctx.request.body);
    await emailSignIn.requestLink({ email: body.email, redirectTo: body.redirectTo, ip: ctx.ip });
    ctx.status = 202;
    ctx.body = { status: 'sent', email: body.email } satisfies SignInLinkSent;
  });

  router.post('/auth/email/consume', allow.public(), async (ctx) => {
    const body = ConsumeSignInLinkBody.parse(ctx.request.body);
    const { user, session, redirectTo } = await emailSignIn.consume({
      ...body,
      userAgent: ctx.get('user-agent') || null,
    });
    setSessionCookies(ctx, session, config);
    ctx.body = { user: publicUser(user), csrfToken: session.csrfToken, redirectTo } satisfies SignedIn;
  });

  router.post('/auth/sign-out', allow.signedIn(), async (ctx) => {
    const auth = authOf(ctx);
    if (auth?.method === 'session') await sessions.destroy(auth.session);
    clearSessionCookies(ctx, config);
    ctx.status = 204;
  });

  // Every other browser and every device of the person; this browser stays signed in (it is the one asking).
  router.post('/auth/sign-out-everywhere', allow.signedIn(), async (ctx) => {
    const auth = authOf(ctx);
    if (auth?.method !== 'session') throw new AppError('forbidden', 'Sign out everywhere from the website.');
    ctx.body = await signOut.ownRequest(auth.user.id, auth.session.id);
  });

  router.get('/auth/providers', allow.public(), async (ctx) => {
    ctx.body = { email: true, github: github.enabled } satisfies SignInProviders;
  });

  router.get('/auth/github', allow.public(), async (ctx) => {
    await limiter.hit(
      { bucket: `oauth-start:ip:${networkOf(ctx.ip)}`, max: 30, windowSeconds: 300 },
      'sign-in attempts',
    );
    const { url, state } = await github.start(ctx.query.redirectTo);
    setOAuthStateCookie(ctx, state, config);
    ctx.redirect(url);
  });

  router.get('/auth/github/callback', allow.public(), async (ctx) => {
    const browserState = ctx.cookies.get(OAUTH_STATE_COOKIE);
    clearOAuthStateCookie(ctx, config);
    try {
      const { session, redirectTo } = await github.callback(
        new URLSearchParams(ctx.querystring),
        browserState,
        ctx.get('user-agent') || null,
      );
      setSessionCookies(ctx, session, config);
      ctx.redirect(redirectTo);
    } catch (error) {
      if (!(error instanceof GitHubSignInError)) throw error;
      ctx.redirect(`/login?error=github-${error.reason}`);
    }
  });

  router.get('/me', allow.signedIn({ bearer: true }), async (ctx) => {
    const auth = authOf(ctx)!;
    const viewing = auth.method === 'session' ? auth.viewAs : undefined;
    // The first page a view opens is noted in the audit log, under the learner.
    if (viewing) await viewAs.entered(viewing.grant, { id: viewing.staff.id, email: viewing.staff.email });
    // What the account menu links, asked side by side.
    const [isPayee, hasSubscriptions] = await Promise.all([
      earnings.isPayee(auth.user.id),
      subscriptions.hasAny(auth.user.id),
    ]);
    ctx.body = {
      user: publicUser(auth.user),
      isPayee,
      hasSubscriptions,
      csrfToken: auth.method === 'session' ? auth.session.csrfToken : null,
      viewAs: viewing
        ? {
            staffEmail: viewing.staff.email,
            reason: viewing.grant.reason,
            expiresAt: viewing.grant.expiresAt,
          }
        : null,
    } satisfies MeAnswer;
  });

  router.post('/device', allow.signedIn(), async (ctx) => {
    const { userCode } = UserCodeBody.parse(ctx.request.body);
    ctx.body = await devices.lookup({ userCode, user: userOf(ctx), ip: ctx.ip });
  });

  router.post('/device/approve', allow.signedIn(), async (ctx) => {
    const { userCode } = UserCodeBody.parse(ctx.request.body);
    await devices.approve({ userCode, user: userOf(ctx), ip: ctx.ip });
    ctx.body = { status: 'approved' } satisfies DeviceDecision;
  });

  router.post('/device/deny', allow.signedIn(), async (ctx) => {
    const { userCode } = UserCodeBody.parse(ctx.request.body);
    await devices.deny({ userCode, user: userOf(ctx), ip: ctx.ip });
    ctx.body = { status: 'denied' } satisfies DeviceDecision;
  });

  router.get('/devices', allow.signedIn(), async (ctx) => {
    const auth = authOf(ctx)!;
    const otherSessions = await sessions.countOthers(auth.user.id, auth.method === 'session' ? auth.session.id : null);
    ctx.body = { data: await devices.listDevices(auth.user.id), otherSessions } satisfies DevicesAnswer;
  });

  router.delete('/devices/:id', allow.signedIn(), async (ctx) => {
    const { id } = IdParam.parse(ctx.params);
    await devices.revokeDevice(userOf(ctx).id, id);
    ctx.status = 204;
  });

  router.get('/prefs', allow.signedIn({ bearer: true }), async (ctx) => {
    const scope = PrefsQuery.parse(ctx.query);
    ctx.body = { ...scope, fields: await prefs.get(userOf(ctx).id, scope) } satisfies PrefsAnswer;
  });

  router.put('/prefs', allow.signedIn({ bearer: true }), async (ctx) => {
    const { fields, ...scope } = PutPrefsBody.parse(ctx.request.body);
    ctx.body = { ...scope, fields: await prefs.put(userOf(ctx).id, scope, fields) } satisfies PrefsAnswer;
  });

  return router;
}
