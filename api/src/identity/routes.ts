import Router from '@koa/router';
import type { Config } from '../config';
import { OAUTH_STATE_COOKIE, clearOAuthStateCookie, clearSessionCookies, setOAuthStateCookie, setSessionCookies, userOf, authOf } from '../http/auth';
import type { RateLimiter } from './rate-limit';
import type { Policies } from '../http/policy';
import type { DeviceFlow } from './device-flow';
import type { EmailSignIn } from './email-sign-in';
import { GitHubSignInError, type GitHubSignIn } from './github';
import type { UserPrefsService } from './prefs';
import { IdParam } from '../http/params';
import { ConsumeSignInLinkBody, PrefsQuery, PutPrefsBody, RequestSignInLinkBody, UserCodeBody } from './schemas';
import type { Sessions } from './sessions';
import type { User } from './models';

interface Deps {
  allow: Policies;
  limiter: RateLimiter;
  config: Config;
  emailSignIn: EmailSignIn;
  github: GitHubSignIn;
  sessions: Sessions;
  devices: DeviceFlow;
  prefs: UserPrefsService;
}

export function publicUser(user: User) {
  return { id: user.id, email: user.email, name: user.name, image: user.image, roles: user.roles, emailVerified: user.emailVerified };
}

/** The storefront's identity endpoints under /api/store. */
export function identityRoutes({ allow, config, emailSignIn, github, sessions, devices, prefs, limiter }: Deps) {
  const router = new Router();

  router.post('/auth/email', allow.public(), async (ctx) => {
    const body = RequestSignInLinkBody.parse(ctx.request.body);
    await emailSignIn.requestLink({ email: body.email, redirectTo: body.redirectTo, ip: ctx.ip });
    ctx.status = 202;
    ctx.body = { status: 'sent', email: body.email };
  });

  router.post('/auth/email/consume', allow.public(), async (ctx) => {
    const body = ConsumeSignInLinkBody.parse(ctx.request.body);
    const { user, session, redirectTo } = await emailSignIn.consume({ ...body, userAgent: ctx.get('user-agent') || null });
    setSessionCookies(ctx, session, config);
    ctx.body = { user: publicUser(user), csrfToken: session.csrfToken, redirectTo };
  });

  router.post('/auth/sign-out', allow.signedIn(), async (ctx) => {
    const auth = authOf(ctx);
    if (auth?.method === 'session') await sessions.destroy(auth.session);
    clearSessionCookies(ctx, config);
    ctx.status = 204;
  });

  router.get('/auth/providers', allow.public(), async (ctx) => {
    ctx.body = { email: true, github: github.enabled };
  });

  router.get('/auth/github', allow.public(), async (ctx) => {
    await limiter.hit({ bucket: `oauth-start:ip:${ctx.ip}`, max: 30, windowSeconds: 300 }, 'sign-in attempts');
    const { url, state } = await github.start(ctx.query.redirectTo);
    setOAuthStateCookie(ctx, state, config);
    ctx.redirect(url);
  });

  router.get('/auth/github/callback', allow.public(), async (ctx) => {
    const browserState = ctx.cookies.get(OAUTH_STATE_COOKIE);
    clearOAuthStateCookie(ctx, config);
    try {
      const { session, redirectTo } = await github.callback(new URLSearchParams(ctx.querystring), browserState, ctx.get('user-agent') || null);
      setSessionCookies(ctx, session, config);
      ctx.redirect(redirectTo);
    } catch (error) {
      if (!(error instanceof GitHubSignInError)) throw error;
      ctx.redirect(`/login?error=github-${error.reason}`);
    }
  });

  router.get('/me', allow.signedIn({ bearer: true }), async (ctx) => {
    const auth = authOf(ctx)!;
    ctx.body = { user: publicUser(auth.user), csrfToken: auth.method === 'session' ? auth.session.csrfToken : null };
  });

  router.post('/device', allow.signedIn(), async (ctx) => {
    const { userCode } = UserCodeBody.parse(ctx.request.body);
    ctx.body = await devices.lookup({ userCode, user: userOf(ctx), ip: ctx.ip });
  });

  router.post('/device/approve', allow.signedIn(), async (ctx) => {
    const { userCode } = UserCodeBody.parse(ctx.request.body);
    await devices.approve({ userCode, user: userOf(ctx), ip: ctx.ip });
    ctx.body = { status: 'approved' };
  });

  router.post('/device/deny', allow.signedIn(), async (ctx) => {
    const { userCode } = UserCodeBody.parse(ctx.request.body);
    await devices.deny({ userCode, user: userOf(ctx), ip: ctx.ip });
    ctx.body = { status: 'denied' };
  });

  router.get('/devices', allow.signedIn(), async (ctx) => {
    ctx.body = { data: await devices.listDevices(userOf(ctx).id) };
  });

  router.delete('/devices/:id', allow.signedIn(), async (ctx) => {
    const { id } = IdParam.parse(ctx.params);
    await devices.revokeDevice(userOf(ctx).id, id);
    ctx.status = 204;
  });

  router.get('/prefs', allow.signedIn({ bearer: true }), async (ctx) => {
    const scope = PrefsQuery.parse(ctx.query);
    ctx.body = { ...scope, fields: await prefs.get(userOf(ctx).id, scope) };
  });

  router.put('/prefs', allow.signedIn({ bearer: true }), async (ctx) => {
    const { fields, ...scope } = PutPrefsBody.parse(ctx.request.body);
    ctx.body = { ...scope, fields: await prefs.put(userOf(ctx).id, scope, fields) };
  });

  return router;
}
