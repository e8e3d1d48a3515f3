import { table } from '../db/base-model';
import type { RecipientType } from '../shared/finance';
import type { LedgerKind } from './ledger';

export class ProductRevenueSplit extends table('productRevenueSplits') {
  declare id: string;
  declare type: RecipientType;
  declare productId: string;
  declare percent: number; // numeric(5,4): four decimals, exact as a JSON number
  declare userId: string | null;
  declare createdAt: Date;
}

/** One line of the append-only revenue split ledger (cents, signed). */
export class SplitLine extends table('splitLines') {
  declare id: string; // bigint, as a string
  declare merchantChargeId: string;
  declare productId: string;
  declare recipientType: RecipientType;
  declare userId: string | null;
  declare kind: LedgerKind;
  declare amount: number;
  declare currency: string;
  declare reference: string | null;
  declare createdAt: Date;
}
