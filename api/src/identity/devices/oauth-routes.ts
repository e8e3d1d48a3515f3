import Router from '@koa/router';
import type { Context } from 'koa';
import { authOf } from '../http/caller';
import type { Policies } from '../http/policy';
import { DEVICE_CODE_GRANT, type DeviceFlow, type TokenError } from './device-flow';
import { publicUser } from '../profile/users';
import { networkOf, type RateLimiter } from '../rate-limit';
import { ClientId } from '../schemas';

export const DEVICE_CODE_REQUEST_LIMIT = { max: 20, windowSeconds: 5 * 60 };

type OAuthErrorCode = TokenError | 'invalid_client' | 'unsupported_grant_type';

/** RFC 6749 §5.2: a JSON body with `error` (and a description), never cached. */
function oauthError(ctx: Context, error: OAuthErrorCode, description: string): void {
  ctx.status = error === 'invalid_client' ? 401 : 400;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error, error_description: description };
}

function formField(ctx: Context, name: string): string | undefined {
  const value = (ctx.request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** The device authorization grant (RFC 8628) and userinfo, under /oauth. */
export function oauthRoutes({
  allow,
  devices,
  limiter,
}: {
  allow: Policies;
  devices: DeviceFlow;
  limiter: RateLimiter;
}) {
  const router = new Router();

  router.post('/device/code', allow.public(), async (ctx) => {
    if (!ctx.is('application/x-www-form-urlencoded'))
      return oauthError(ctx, 'invalid_request', 'Send the request form-encoded.');
    const clientId = ClientId.safeParse(formField(ctx, 'client_id'));
    if (!clientId.success) return oauthError(ctx, 'invalid_client', 'client_id is missing or malformed.');
    await limiter.hit(
      { bucket: `device-code-request:ip:${networkOf(ctx.ip)}`, ...DEVICE_CODE_REQUEST_LIMIT },
      'device sign-in requests',
    );
    const issued = await devices.requestCode(clientId.data);
    // RFC 8628 §3.1 and RFC 6749 §5.2: only registered clients may ask; people are shown their registered names.
    if (!issued)
      return oauthError(ctx, 'invalid_client', 'Unknown client_id: this app is not registered for device sign-in.');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = issued;
  });

  router.post('/token', allow.public(), async (ctx) => {
    if (!ctx.is('application/x-www-form-urlencoded'))
      return oauthError(ctx, 'invalid_request', 'Send the request form-encoded.');
    const grantType = formField(ctx, 'grant_type');
    if (grantType !== DEVICE_CODE_GRANT)
      return oauthError(ctx, 'unsupported_grant_type', `Only ${DEVICE_CODE_GRANT} is supported.`);
    const clientId = ClientId.safeParse(formField(ctx, 'client_id'));
    if (!clientId.success) return oauthError(ctx, 'invalid_client', 'client_id is missing or malformed.');
    const deviceCode = formField(ctx, 'device_code');
    if (!deviceCode || deviceCode.length > 200) return oauthError(ctx, 'invalid_request', 'device_code is required.');

    const result = await devices.poll({ deviceCode, clientId: clientId.data });
    if ('error' in result) return oauthError(ctx, result.error, result.description);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { access_token: result.accessToken, token_type: 'Bearer' };
  });

  router.get('/userinfo', allow.signedIn({ bearer: true }), async (ctx) => {
    const { user } = authOf(ctx)!;
    ctx.body = { sub: user.id, ...publicUser(user) };
  });

  return router;
}
