import Router from '@koa/router';
import type { Context } from 'koa';
import { actorOf, authOf } from '../http/caller';
import { IdParam } from '../../http/params';
import type { Policies } from '../http/policy';
import type { PersonEmails } from '../../mail/person-emails';
import type { PersonEmailsPage, ResendAnswer } from '../../mail/schemas';
import type { StaffAct, UserBlocks } from './blocks';
import type { EmailChange } from '../profile/email-change';
import {
  BlockBody,
  ChangeEmailBody,
  PersonEmailParams,
  PersonEmailsQuery,
  ResendBody,
  type BlockAnswer,
  type EmailChanged,
} from '../schemas';

function staffAct(ctx: Context): StaffAct {
  return { actor: actorOf(ctx), requestId: (ctx.state.requestId as string) ?? null };
}

/**
 * Support's tools on a person's page in the console (docs/product.md §10.2): their emails and Resend, block and
 * unblock, change their email. Support and admins; staff accounts only admins (the services' rule).
 */
export function supportRoutes({
  allow,
  emails,
  blocks,
  emailChange,
}: {
  allow: Policies;
  emails: PersonEmails;
  blocks: UserBlocks;
  emailChange: EmailChange;
}) {
  const router = new Router();
  const support = allow.roles('support');

  router.get('/users/:id/emails', support, async (ctx) => {
    const query = PersonEmailsQuery.parse(ctx.query);
    ctx.body = (await emails.list(IdParam.parse(ctx.params).id, query)) satisfies PersonEmailsPage;
  });

  router.post('/users/:id/emails/:emailId/resend', support, async (ctx) => {
    const { id, emailId } = PersonEmailParams.parse(ctx.params);
    const { requestKey } = ResendBody.parse(ctx.request.body);
    const { actor, requestId } = staffAct(ctx);
    const answer = await emails.resend(id, emailId, { key: requestKey, actor, requestId });
    ctx.status = answer.created ? 201 : 200;
    ctx.body = answer satisfies ResendAnswer;
  });

  router.post('/users/:id/block', support, async (ctx) => {
    const { reason } = BlockBody.parse(ctx.request.body);
    ctx.body = (await blocks.block(IdParam.parse(ctx.params).id, reason, staffAct(ctx))) satisfies BlockAnswer;
  });

  router.post('/users/:id/unblock', support, async (ctx) => {
    ctx.body = (await blocks.unblock(IdParam.parse(ctx.params).id, staffAct(ctx))) satisfies BlockAnswer;
  });

  router.post('/users/:id/change-email', support, async (ctx) => {
    const { email } = ChangeEmailBody.parse(ctx.request.body);
    const auth = authOf(ctx);
    const currentSessionId = auth?.method === 'session' ? auth.session.id : null;
    ctx.body = (await emailChange.change(IdParam.parse(ctx.params).id, email, {
      ...staffAct(ctx),
      currentSessionId,
    })) satisfies EmailChanged;
  });

  return router;
}
