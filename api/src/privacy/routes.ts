import Router from '@koa/router';
import type { Context } from 'koa';
import type { Config } from '../config';
import { clearSessionCookies } from '../http/auth';
import { IdParam } from '../http/params';
import { actorOf, authOf, userOf } from '../identity/http/caller';
import type { Policies } from '../identity/http/policy';
import { AppError } from '../shared/errors';
import { exportFilename } from './export';
import type { PersonalData } from './personal-data';
import { DeleteAccountBody, type AccountDeleted, type PersonalDataExport } from './schemas';

const requestIdOf = (ctx: Context): string | null => (ctx.state.requestId as string) ?? null;

/** A download of personal data: a JSON file, never kept by a cache on the way. */
function sendExport(ctx: Context, data: PersonalDataExport) {
  ctx.set('Content-Disposition', `attachment; filename="${exportFilename(data)}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'application/json';
  ctx.body = data satisfies PersonalDataExport;
}

/** The person's own data from the storefront (docs/domain.md §16): download it, or delete the account. */
export function personalDataRoutes({
  allow,
  config,
  personalData,
}: {
  allow: Policies;
  config: Pick<Config, 'NODE_ENV'>;
  personalData: PersonalData;
}) {
  const router = new Router();

  router.get('/me/export', allow.signedIn(), async (ctx) => {
    // Support viewing as the person downloads from the console instead, where the download is audited.
    const auth = authOf(ctx);
    if (auth?.method === 'session' && auth.viewAs) {
      throw new AppError('forbidden', 'Download a person’s data from their page in the console.');
    }
    sendExport(ctx, await personalData.exportOwn(userOf(ctx).id));
  });

  // From the website only: a device token cannot delete the account it was lent.
  router.delete('/me', allow.signedIn(), async (ctx) => {
    const { confirm } = DeleteAccountBody.parse(ctx.request.body ?? {});
    await personalData.deleteOwn(userOf(ctx).id, confirm, requestIdOf(ctx));
    clearSessionCookies(ctx, config);
    ctx.status = 204;
  });

  return router;
}

/** Support's same two tools on a person's page in the console, audited; staff accounts only administrators read. */
export function personalDataAdminRoutes({ allow, personalData }: { allow: Policies; personalData: PersonalData }) {
  const router = new Router();
  const support = allow.roles('support');

  router.get('/users/:id/personal-data', support, async (ctx) => {
    const { id } = IdParam.parse(ctx.params);
    sendExport(ctx, await personalData.exportForStaff(id, { actor: actorOf(ctx), requestId: requestIdOf(ctx) }));
  });

  router.post('/users/:id/delete-account', support, async (ctx) => {
    const { id } = IdParam.parse(ctx.params);
    const { confirm } = DeleteAccountBody.parse(ctx.request.body ?? {});
    const answer = await personalData.deleteForStaff(id, confirm, { actor: actorOf(ctx), requestId: requestIdOf(ctx) });
    ctx.body = { data: answer } satisfies { data: AccountDeleted };
  });

  return router;
}
