import Router from '@koa/router';
import type { Config } from '../config';
import { actorOf, userOf } from '../identity/http/caller';
import { buyerCountry } from '../http/buyer-location';
import type { Policies } from '../identity/http/policy';
import type { CertificateService } from './certificates';
import type { CertificateFile } from './certificates';
import { CertificateIdParam, CorrectNameBody, RevokeBody } from './schemas';
import type { Context } from 'koa';

interface Deps {
  allow: Policies;
  certificates: CertificateService;
}

/** The learner's certificates (/api/store/certificates) and anyone's verification of one by its id. */
export function certificateRoutes({ allow, config, certificates }: Deps & { config: Config }) {
  const router = new Router();

  router.get('/certificates', allow.signedIn(), async (ctx) => {
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = { data: await certificates.mine({ user: userOf(ctx), country: buyerCountry(ctx, config) }) };
  });

  router.get('/certificates/:id', allow.public(), async (ctx) => {
    ctx.body = await certificates.find(CertificateIdParam.parse(ctx.params).id);
  });

  // The page asks whether the reader holds the certificate: only the holder gets its sharing and correction.
  router.get('/certificates/:id/mine', allow.signedIn(), async (ctx) => {
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = { data: await certificates.mineById(userOf(ctx).id, CertificateIdParam.parse(ctx.params).id) };
  });

  router.put('/certificates/:id/name', allow.signedIn(), async (ctx) => {
    const { id } = CertificateIdParam.parse(ctx.params);
    const { name } = CorrectNameBody.parse(ctx.request.body ?? {});
    ctx.body = { data: await certificates.correctOwnName(actorOf(ctx), id, name, ctx.state.requestId ?? null) };
  });

  return router;
}

/** Support revokes a certificate with a reason, or corrects its name (/api/admin/certificates/:id/…). */
export function certificateAdminRoutes({ allow, certificates }: Deps) {
  const router = new Router();

  router.post('/certificates/:id/revoke', allow.roles('support'), async (ctx) => {
    const { id } = CertificateIdParam.parse(ctx.params);
    const { reason } = RevokeBody.parse(ctx.request.body ?? {});
    ctx.body = { data: await certificates.revoke(actorOf(ctx), id, reason, ctx.state.requestId ?? null) };
  });

  router.post('/certificates/:id/name', allow.roles('support'), async (ctx) => {
    const { id } = CertificateIdParam.parse(ctx.params);
    const { name } = CorrectNameBody.parse(ctx.request.body ?? {});
    ctx.body = { data: await certificates.correctNameAsSupport(actorOf(ctx), id, name, ctx.state.requestId ?? null) };
  });

  return router;
}

/** A drawn file, or 304 when the reader's copy (by its ETag) is the same. */
async function sendFile(ctx: Context, file: CertificateFile, type: string) {
  // Checked again each time: a revoked certificate stops answering at once.
  ctx.set('Cache-Control', 'public, no-cache');
  ctx.status = 200; // freshness is judged on a success
  ctx.etag = file.etag;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.type = type;
  ctx.set('Content-Disposition', `inline; filename="${file.filename}"`);
  ctx.body = Buffer.from(await file.bytes());
}

/**
 * `/certificates/:id.pdf` and the link preview's picture `/certificates/:id.png`, beside the storefront's
 * verification page `/certificates/:id` (outside /api: the addresses people share, print and preview). The same
 * certificate answers the same bytes, so an ETag saves drawing it again.
 */
export function certificatePdfRoutes({ allow, certificates }: Deps) {
  const router = new Router();

  router.get('/certificates/:id.pdf', allow.public(), async (ctx) => {
    await sendFile(ctx, await certificates.pdf(CertificateIdParam.parse(ctx.params).id), 'application/pdf');
  });

  router.get('/certificates/:id.png', allow.public(), async (ctx) => {
    await sendFile(ctx, await certificates.preview(CertificateIdParam.parse(ctx.params).id), 'image/png');
  });

  return router;
}
