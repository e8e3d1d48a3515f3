import { AppError } from '../../shared/errors';
import { bookBindings } from './book-entries';
import { CLASSIFIED } from './classified';
import type { ReconciliationDeps } from './deps';
import { ledgerOf } from './import';
import { matchTransactions } from './match';
import { rowsOf } from './report';
import type { ProcessorRow } from './schemas';

interface Found {
  kind: string;
  sourceIdentifier: string | null;
  chargeIdentifier: string | null;
  amount: number;
  fee: number;
  reason: ProcessorRow['reason'];
  recoverable: boolean;
  state: string;
  checkoutIdentifier: string | null;
  createdAt: Date;
}

/**
 * Recovers the event a processor transaction shows was missed, through the same code as its webhook, then matches
 * again (docs/domain.md §20): a paid checkout is settled (fulfilled once, however often this runs), a refund made at
 * the processor is recorded (its charge's total read under the charge's lock), a dispute is opened with its fee. Answers the transaction's state.
 */
export async function recoverTransaction(
  deps: ReconciliationDeps,
  id: string,
): Promise<{ state: 'matched' | 'difference' | 'unmatched' }> {
  const { db, provider, recovery } = deps;
  const account = await provider.accountId();
  const found = await classified(deps, id);
  if (found.state !== 'unmatched')
    throw new AppError('reconciliation-already-matched', 'This transaction is matched to the books already.');
  if (!found.recoverable)
    throw new AppError('reconciliation-not-recoverable', 'Nothing in the books can take this transaction.');
  if (found.kind === 'charge') {
    const session = found.checkoutIdentifier ?? (await ledgerOf(deps).checkoutOfCharge(found.sourceIdentifier!));
    if (session) await recovery.settleSession(session);
  } else if (found.kind === 'refund') {
    await recovery.refundedAtProvider(account, found.chargeIdentifier!, -found.amount, found.sourceIdentifier!);
  } else if (found.kind === 'dispute') {
    await recovery.disputeOpened(account, {
      identifier: found.sourceIdentifier!,
      chargeIdentifier: found.chargeIdentifier!,
      amount: -found.amount,
      reason: null,
      fee: found.fee,
    });
  }
  await matchTransactions(db, account, provider.label);
  return { state: (await classified(deps, id)).state as 'matched' | 'difference' | 'unmatched' };
}

async function classified(deps: ReconciliationDeps, id: string): Promise<Found> {
  const { db, provider } = deps;
  const txn = await db('processorBalanceTransactions')
    .where({ id, merchantAccountId: await provider.accountId() })
    .first('createdAt', 'checkoutIdentifier');
  if (!txn) throw new AppError('not-found', 'No such processor transaction.');
  const at = txn.createdAt as Date;
  const result = await db.raw(`SELECT * FROM (${CLASSIFIED}) c WHERE id = :id`, {
    ...bookBindings(await provider.accountId(), provider.label),
    from: at,
    to: new Date(at.getTime() + 1),
    id,
  });
  return { ...(rowsOf(result)[0] as unknown as Found), checkoutIdentifier: txn.checkoutIdentifier };
}
