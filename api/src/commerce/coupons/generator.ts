import { randomInt } from 'node:crypto';
import { recordAudit, type Actor } from '../../audit/record';
import type { Db } from '../../db/connection';
import type { ModelObject } from 'objection';
import type { Coupon } from '../models';

/** No 0/O or 1/I/L: codes are read aloud and typed by hand. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

function newCode(prefix: string): string {
  const body = Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  return prefix ? `${prefix}-${body}` : body;
}

type CouponRow = ModelObject<Coupon>;

/**
 * A batch to make: `count` coupons alike but for their codes, with any of a coupon's own terms (the console's route
 * parses it from its schema).
 */
export type CouponBatch = { count: number; prefix: string } & Pick<CouponRow, 'percentageDiscount' | 'maxUses'> &
  Partial<Omit<CouponRow, 'id' | 'code' | 'usedCount' | 'inviteCode' | 'createdAt' | 'updatedAt'>>;

/** The console's coupon generator: N coupons with fresh codes in one transaction, audited together. */
export function couponGenerator({ db }: { db: Db }) {
  return {
    async generate(input: CouponBatch, actor: Actor, requestId: string | null): Promise<CouponRow[]> {
      return db.transaction(async (trx) => {
        const { count, prefix, ...fields } = input;
        const created: CouponRow[] = [];
        // 31^8 codes: a clash is rare; ON CONFLICT skips it and the loop draws again.
        for (let round = 0; created.length < count && round < 5; round++) {
          const rows = Array.from({ length: count - created.length }, () => ({ ...fields, code: newCode(prefix) }));
          const inserted = (await trx('coupons')
            .insert(rows)
            .onConflict(trx.raw('(lower(code)) WHERE code IS NOT NULL'))
            .ignore()
            .returning('*')) as CouponRow[];
          created.push(...inserted);
        }
        await recordAudit(trx, {
          actor,
          requestId,
          action: 'generate',
          resource: 'coupons',
          recordId: null,
          after: { count: created.length, ids: created.map((c) => c.id), ...fields, prefix },
        });
        return created;
      });
    },
  };
}

export type CouponGenerator = ReturnType<typeof couponGenerator>;
