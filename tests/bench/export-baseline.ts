/**
 * The CSV exports' baselines: "csv-stringify on the same SQL". Each streams the selection the product's export runs
 * (the same joins, filters and order, taken from the product's code, with raw columns) through pg-query-stream into
 * csv-stringify, in a read-only transaction planned for every row as the product's is. tests/bench/run.ts mounts it
 * beside the product and compares rows per second and the time to the first byte.
 */
import { pipeline } from 'node:stream';
import Router from '@koa/router';
import { stringify } from 'csv-stringify';
import type pg from 'pg';
import QueryStream from 'pg-query-stream';
import { listExportSelection } from '../../api/src/admin/lists/export';
import { adminService } from '../../api/src/admin/records/service';
import { ADMIN_RESOURCES } from '../../api/src/admin/resources';
import type { Db } from '../../api/src/db/connection';
import type { Statement } from '../../api/src/db/csv-cursor';
import { exportSelection } from '../../api/src/finance/exports';
import { parseListQuery } from '../../api/src/list-query/schemas';

/** knex's pool, whose connections are used raw (as the product's exports use them). */
interface Pool {
  acquireConnection(): Promise<pg.Client>;
  releaseConnection(connection: pg.Client): Promise<void>;
}

/** An admin reading the console's lists (no read scope narrows what an admin sees). */
const READER = { id: '00000000-0000-4000-8000-000000000000', email: 'bench@example.com', roles: ['admin'] as const };

/** `GET /export/charges.csv?from&to` (the finance export's selection) and `GET /export/purchases.csv` (the list's). */
export function exportBaselines(db: Db) {
  const pool = db.client as Pool;
  const admin = adminService({ db });
  const purchases = ADMIN_RESOURCES.find((r) => r.name === 'purchases')!;

  async function streamed(statement: Statement) {
    const connection = await pool.acquireConnection();
    await connection.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL cursor_tuple_fraction = 1');
    const rows = connection.query(new QueryStream(statement.sql, [...statement.bindings], { batchSize: 5000 }));
    const csv = stringify({ header: true, bom: true, record_delimiter: 'windows' });
    pipeline(rows, csv, (error) => {
      void connection
        .query(error ? 'ROLLBACK' : 'COMMIT')
        .catch(() => connection.end())
        .finally(() => pool.releaseConnection(connection));
    });
    return csv;
  }

  const router = new Router();
  router.get('/export/charges.csv', async (ctx) => {
    const from = String(ctx.query.from ?? '2000-01-01');
    const to = String(ctx.query.to ?? '2100-01-01');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = await streamed(exportSelection('charges', { from, to, period: 'month' }));
  });
  router.get('/export/purchases.csv', async (ctx) => {
    const query = parseListQuery(purchases, {});
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = await streamed(listExportSelection(db, admin, purchases, query, READER).rows);
  });
  return router;
}
