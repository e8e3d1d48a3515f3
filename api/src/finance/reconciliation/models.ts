import { table } from '../../db/base-model';

/** A payout the processor sent to the school's bank, as imported (docs/domain.md §20). */
export class ProcessorPayout extends table('processorPayouts') {
  declare id: string;
  declare merchantAccountId: string;
  declare identifier: string;
  declare amount: number;
  declare currency: string;
  declare status: string;
  declare arrivalOn: Date | null;
  declare createdAt: Date;
  declare importedAt: Date;
}

/** One movement of the processor's balance, as imported: matched to at most one entry of the books. */
export class ProcessorBalanceTransaction extends table('processorBalanceTransactions') {
  declare id: string;
  declare merchantAccountId: string;
  declare identifier: string;
  declare kind: string;
  declare sourceIdentifier: string | null;
  declare chargeIdentifier: string | null;
  declare checkoutIdentifier: string | null;
  declare amount: number;
  declare fee: number;
  declare net: number;
  declare currency: string;
  declare processorPayoutId: string | null;
  declare createdAt: Date;
  declare importedAt: Date;
}

/** A balance transaction matched to the one charge, refund, dispute or payout of the books it settles. */
export class ReconciliationMatch extends table('reconciliationMatches', { idColumn: 'balanceTransactionId' }) {
  declare balanceTransactionId: string;
  declare bookKind: string;
  declare bookId: string;
  declare matchedAt: Date;
}
