import Router from '@koa/router';
import type { Config } from '../config';
import { actorOf, userOf } from '../identity/http/caller';
import { buyerCountry } from '../http/buyer-location';
import type { Policies } from '../identity/http/policy';
import type { CertificateService } from './certificates';
import { CertificateIdParam, RevokeBody } from './schemas';

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

  return router;
}

/** Support revokes a certificate with a reason (/api/admin/certificates/:id/revoke). */
export function certificateAdminRoutes({ allow, certificates }: Deps) {
  const router = new Router();

  router.post('/certificates/:id/revoke', allow.roles('support'), async (ctx) => {
    const { id } = CertificateIdParam.parse(ctx.params);
    const { reason } = RevokeBody.parse(ctx.request.body ?? {});
    ctx.body = { data: await certificates.revoke(actorOf(ctx), id, reason, ctx.state.requestId ?? null) };
  });

  return router;
}

/**
 * `/certificates/:id.pdf`, beside the storefront's verification page `/certificates/:id` (outside /api: it is the
 * address people share and print). The same certificate answers the same bytes, so an ETag saves drawing it again.
 */
export function certificatePdfRoutes({ allow, certificates }: Deps) {
  const router = new Router();

  router.get('/certificates/:id.pdf', allow.public(), async (ctx) => {
    const pdf = await certificates.pdf(CertificateIdParam.parse(ctx.params).id);
    // Checked again each time: a revoked certificate stops answering at once.
    ctx.set('Cache-Control', 'public, no-cache');
    ctx.status = 200; // freshness is judged on a success
    ctx.etag = pdf.etag;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `inline; filename="${pdf.filename}"`);
    ctx.body = Buffer.from(await pdf.bytes());
  });

  return router;
}
