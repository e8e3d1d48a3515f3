import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import type { PurchaseTotals } from '../schemas';

/**
 * A person's lifetime totals, per currency, summed by PostgreSQL from their purchases and the charges behind them:
 * the charges the finance exports list (gross, refunded), so the person's page and Finance agree to the cent. A
 * purchase without a charge (a comp, a team seat, a free checkout) counts, and adds nothing.
 */
const TOTALS = `
  SELECT COALESCE(ch.currency, p.currency) AS currency,
         COALESCE(sum(ch.amount), 0)::bigint AS paid,
         COALESCE(sum(ch.refund_amount), 0)::bigint AS refunded,
         COALESCE(sum(ch.amount - ch.refund_amount), 0)::bigint AS net,
         count(*)::int AS purchases,
         count(ch.id)::int AS charges,
         count(*) FILTER (WHERE ch.refund_amount > 0)::int AS refunds,
         count(*) FILTER (WHERE p.kind = 'comp')::int AS comps
    FROM purchases p
    LEFT JOIN merchant_charges ch ON ch.id = p.merchant_charge_id
   WHERE p.user_id = ?
   GROUP BY 1
   ORDER BY 1`;

type Row = PurchaseTotals['currencies'][number] & { paid: string; refunded: string; net: string };

export function purchaseTotals({ db }: { db: Db }) {
  return {
    async ofPerson(userId: string): Promise<PurchaseTotals> {
      if (!(await db('users').where({ id: userId }).first('id')))
        throw new AppError('not-found', `No users record with id ${userId}.`);
      const { rows } = (await db.raw(TOTALS, [userId])) as { rows: Row[] };
      return {
        currencies: rows.map((r) => ({
          ...r,
          // bigint sums arrive as strings; a person's cents stay far below 2^53.
          paid: Number(r.paid),
          refunded: Number(r.refunded),
          net: Number(r.net),
        })),
      };
    },
  };
}

export type PurchaseTotalsService = ReturnType<typeof purchaseTotals>;
