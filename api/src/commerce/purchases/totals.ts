import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import type { PurchaseTotals } from '../schemas';

/**
 * A person's lifetime totals, per currency, summed by PostgreSQL: the money from the charges they paid (the charges
 * the finance exports list, gross and refunded, so the person's page and Finance agree to the cent), whoever holds
 * those purchases now; the counts from the purchases they hold. A purchase given to them (a transfer, a move, a team
 * seat) or without a charge (a comp, a free checkout) counts, and adds no money.
 */
const TOTALS = `
  SELECT m.currency,
         COALESCE(sum(m.paid), 0)::bigint AS paid,
         COALESCE(sum(m.refunded), 0)::bigint AS refunded,
         COALESCE(sum(m.paid - m.refunded), 0)::bigint AS net,
         count(*) FILTER (WHERE m.held)::int AS purchases,
         count(*) FILTER (WHERE m.paid IS NOT NULL)::int AS charges,
         count(*) FILTER (WHERE m.refunded > 0)::int AS refunds,
         count(*) FILTER (WHERE m.comp)::int AS comps
    FROM (SELECT ch.currency, ch.amount AS paid, ch.refund_amount AS refunded, false AS held, false AS comp
            FROM merchant_charges ch WHERE ch.user_id = ?
          UNION ALL
          SELECT p.currency, NULL, NULL, true, p.kind = 'comp' FROM purchases p WHERE p.user_id = ?) m
   GROUP BY 1
   ORDER BY 1`;

type Row = PurchaseTotals['currencies'][number] & { paid: string; refunded: string; net: string };

export function purchaseTotals({ db }: { db: Db }) {
  return {
    async ofPerson(userId: string): Promise<PurchaseTotals> {
      if (!(await db('users').where({ id: userId }).first('id')))
        throw new AppError('not-found', `No users record with id ${userId}.`);
      const { rows } = (await db.raw(TOTALS, [userId, userId])) as { rows: Row[] };
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
