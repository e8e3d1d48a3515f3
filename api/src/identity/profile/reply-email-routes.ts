import Router from '@koa/router';
import type { Policies } from '../http/policy';
import type { ReplyEmailOptOut } from './reply-emails';
import { UnsubscribeQuery, type UnsubscribeAnswer } from './reply-emails.schemas';

/**
 * The unsubscribe link of reply emails, without signing in: the storefront's /unsubscribe page POSTs here from its
 * button, and a mail client's one-click Unsubscribe (RFC 8058, List-Unsubscribe-Post) POSTs here directly.
 */
export function replyEmailRoutes({ allow, optOut }: { allow: Policies; optOut: ReplyEmailOptOut }) {
  const router = new Router();
  router.post('/unsubscribe/replies', allow.public(), async (ctx) => {
    const { token } = UnsubscribeQuery.parse(ctx.query);
    ctx.body = (await optOut.unsubscribe(token)) satisfies UnsubscribeAnswer;
  });
  return router;
}
