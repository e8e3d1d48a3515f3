import { expect } from 'vitest';
import type { Db } from '../../api/src/db/connection';
import { Purchase, PurchaseUserTransfer } from './models';
import type { Services } from '../../api/src/services';
import { signedIn, signedInByEmail, type SignedIn } from './auth';
import { boughtWithTestProvider } from './checkout';

export type RaceOutcome = 'transferred-then-refunded' | 'refunded-first';

/**
 * One purchase bought, offered to someone and verified by them; then their Accept and a support refund race, one
 * side up to `spreadMs` ahead of the other (by `n`), so that both orders and every overlap happen across attempts.
 * Asserts the single consistent end state either order must reach, and says which order won.
 */
export async function raceTransferAgainstRefund(input: {
  db: Db;
  services: Services;
  productId: string;
  support: SignedIn;
  n: number;
  spreadMs: number;
}): Promise<RaceOutcome> {
  const { db, services, support, n, spreadMs } = input;
  const owner = await signedIn(db, ['learner']);
  const purchaseId = await boughtWithTestProvider(services, db, { buyer: owner.user, productId: input.productId });
  const recipientEmail = `transfer-race-${n}-${owner.user.id.slice(0, 8)}@example.com`;
  const transfer = await services.transfers.initiate(owner.user.id, purchaseId, recipientEmail);
  const recipient = await signedInByEmail(db, recipientEmail);
  await services.transfers.verify(recipient.user.id, transfer.id);

  const head = (n % 10) * (spreadMs / 9);
  const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const acceptIt = () => services.transfers.accept(recipient.user.id, transfer.id);
  const refundIt = () =>
    services.lifecycle.refund(
      purchaseId,
      { reasonCode: 'customer-request', reason: 'racing a transfer' },
      { id: support.user.id, email: support.user.email },
    );
  // The ends of the spread wait for the other side to finish: both orders happen however slow the machine makes one
  // side's work before its lock (a loaded machine once let the accept win all 300). The rest overlap.
  const { accept, refund } =
    n % 10 === 0
      ? await inTurn({ accept: acceptIt, refund: refundIt })
      : n % 10 === 9
        ? await inTurn({ refund: refundIt, accept: acceptIt })
        : await overlapping(after(head).then(acceptIt), after(spreadMs - head).then(refundIt));
  expect(refund.status).toBe('fulfilled'); // the purchase is refundable whoever owns it

  const purchase = (await Purchase.query(db).findById(purchaseId))!;
  const charge = await db('merchantCharges').where({ id: purchase.merchantChargeId }).first();
  const rows = await PurchaseUserTransfer.query(db).where({ purchaseId });
  expect(purchase.status).toBe('Refunded');
  expect(charge.refundAmount).toBe(charge.amount);
  expect(charge.userId).toBe(owner.user.id); // the payer, whoever holds the purchase in the end
  expect(await db('merchantRefunds').where({ merchantChargeId: charge.id })).toHaveLength(1);
  expect(rows.filter((r) => ['AVAILABLE', 'INITIATED', 'VERIFIED', 'CONFIRMED'].includes(r.transferState))).toEqual([]);
  const final = rows.find((r) => r.id === transfer.id)!.transferState;
  if (accept.status === 'fulfilled') {
    expect(final).toBe('COMPLETED');
    expect(purchase.userId).toBe(recipient.user.id);
    return 'transferred-then-refunded';
  }
  expect((accept.reason as { code: string }).code).toBe('transfer-not-available');
  expect(final).toBe('CANCELED');
  expect(purchase.userId).toBe(owner.user.id);
  return 'refunded-first';
}

type Outcomes = { accept: PromiseSettledResult<unknown>; refund: PromiseSettledResult<unknown> };

/** Each side to its end, in the order the object names them. */
async function inTurn(sides: { accept: () => Promise<unknown>; refund: () => Promise<unknown> }): Promise<Outcomes> {
  const outcomes: Partial<Outcomes> = {};
  for (const [side, run] of Object.entries(sides) as [keyof Outcomes, () => Promise<unknown>][]) {
    [outcomes[side]] = await Promise.allSettled([run()]);
  }
  return outcomes as Outcomes;
}

async function overlapping(accept: Promise<unknown>, refund: Promise<unknown>): Promise<Outcomes> {
  const [a, r] = await Promise.allSettled([accept, refund]);
  return { accept: a, refund: r };
}
