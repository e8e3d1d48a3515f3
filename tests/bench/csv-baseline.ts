import { pipeline } from 'node:stream';
import type Koa from 'koa';
import { stringify } from 'csv-stringify';
import type { Db } from '../../api/src/db/connection';

/**
 * The CSV exports' baselines: the export's rows (the same tables, joins and order) read as a knex stream and written
 * by csv-stringify, nothing else. `/baseline/charges.csv` beside the charges export, `/baseline/purchases.csv`
 * beside the console's purchases list export.
 */
const SELECTIONS: Record<string, string> = {
  '/baseline/charges.csv': `
    SELECT ch.created_at, ch.id, ch.identifier, p.id AS purchase, pr.name AS product, u.email, p.country, ch.amount,
           ch.tax_amount, ch.fee, ch.net, ch.refund_amount, ch.refunded_tax, ch.currency, p.status
      FROM merchant_charges ch
      LEFT JOIN purchases p ON p.merchant_charge_id = ch.id
      LEFT JOIN products pr ON pr.id = p.product_id
      LEFT JOIN users u ON u.id = ch.user_id
     ORDER BY ch.created_at, ch.id`,
  '/baseline/purchases.csv': `
    SELECT p.id, p.created_at, u.email, pr.name AS product, p.status, p.total_amount, p.currency, p.country
      FROM purchases p JOIN users u ON u.id = p.user_id JOIN products pr ON pr.id = p.product_id
     ORDER BY p.created_at DESC, p.id DESC`,
};

export function exportBaselineRoutes(db: Db): Koa.Middleware {
  return async (ctx, next) => {
    const sql = SELECTIONS[ctx.path];
    if (!sql) return next();
    ctx.type = 'text/csv; charset=utf-8';
    const rows = db.raw(sql).stream();
    ctx.body = pipeline(rows, stringify({ header: true }), () => {});
  };
}
