import Router from '@koa/router';
import type { Context } from 'koa';
import { userOf } from '../identity/http/caller';
import type { Policies } from '../identity/http/policy';
import type { InvoiceDocuments } from './documents';
import { DocumentIdParam, InvoiceBuyerBody } from './schemas';

interface Deps {
  allow: Policies;
  invoices: InvoiceDocuments;
}

/** A PDF to keep: named by its number, never cached by a shared cache (it names the buyer). */
export function sendPdf(ctx: Context, file: { filename: string; bytes: Uint8Array }) {
  ctx.set('Cache-Control', 'private, no-store');
  ctx.type = 'application/pdf';
  ctx.set('Content-Disposition', `inline; filename="${file.filename}"`);
  ctx.body = Buffer.from(file.bytes);
}

/** The payer's invoices and credit notes under /api/store: someone else's do not exist for them (404). */
export function invoiceRoutes({ allow, invoices }: Deps) {
  const router = new Router();

  router.get('/invoices', allow.signedIn(), async (ctx) => {
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = { data: await invoices.list(userOf(ctx).id) };
  });

  // Before /invoices/:id, which would take "….pdf" as an id.
  router.get('/invoices/:id.pdf', allow.signedIn(), async (ctx) => {
    sendPdf(ctx, await invoices.pdf(userOf(ctx).id, DocumentIdParam.parse(ctx.params).id));
  });

  router.get('/invoices/:id', allow.signedIn(), async (ctx) => {
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = await invoices.get(userOf(ctx).id, DocumentIdParam.parse(ctx.params).id);
  });

  router.put('/invoices/:id/buyer', allow.signedIn(), async (ctx) => {
    const { id } = DocumentIdParam.parse(ctx.params);
    const body = InvoiceBuyerBody.parse(ctx.request.body ?? {});
    ctx.body = await invoices.correctBuyer(userOf(ctx).id, id, body);
  });

  return router;
}

/** The console's copy of an invoice's or credit note's PDF (finance and administrators), under /api/admin. */
export function invoiceAdminRoutes({ allow, invoices }: Deps) {
  const router = new Router();

  router.get('/invoices/:id.pdf', allow.roles('finance'), async (ctx) => {
    sendPdf(ctx, await invoices.staffPdf(DocumentIdParam.parse(ctx.params).id));
  });

  return router;
}
