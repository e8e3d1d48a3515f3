import type { ProviderCheckout } from '../../payments/provider';
import type { CheckoutDeps } from './checkout-deps';
import { findCheckoutsOfSessions, type EventKey, type FoundCheckout } from './checkout-rows';
import { lockCheckouts } from './locked-checkout';
import { settle, settleLockedCheckout, type Alongside, type SettleDeps, type Settled } from './settle';
import type { PaidCheckout, SettleOutcome } from './settle-steps';
import { issueNumbered, settlePlainTogether } from './settle-together';

/**
 * Settles the checkouts of several provider events at once (docs/domain.md §6.2, "Fulfilment in batches"): one read
 * finds every checkout and whether its event was processed, the provider is asked for the sessions concurrently
 * (outside any transaction), and every paid open checkout is fulfilled in ONE transaction that locks them all in one
 * statement. Whatever is not that plain case (settled already, not paid, canceled, free) goes through `settle` on its
 * own, and so does every checkout of a batch whose transaction fails (a deadlock, a constraint): one bad checkout
 * cannot fail the others. Each ask is answered through `answer` (by its index in `asks`) as soon as its own outcome
 * is known: a slow one (a refund's call to the provider) holds no other.
 */

export interface SessionSettlement {
  sessionIdentifier: string;
  /** The event's write, committed with the fulfilment (see `Alongside`). */
  alongside: Alongside;
  event: EventKey;
  /** The event's type: a batch marks its events processed itself, in one insert, as `alongside` would. */
  eventType: string;
}

type Found = FoundCheckout & { eventProcessed: boolean };

/** An ask's outcome: its settlement, or null when no checkout has its session. */
export type SessionAnswer = (index: number, outcome: PromiseSettledResult<Settled | null>) => void;

/**
 * Settlements on their own (`settle`) run at once per batch, at most: with the batch's own transaction and a second
 * batch's, they stay well within the database pool, however many a batch holds.
 */
const ALONE_AT_ONCE = 2;

/** A checkout the batch settles: the asks naming it (the first one's `alongside` commits with it). */
interface Group {
  found: Found;
  asks: number[];
}

export async function settleSessions(
  deps: SettleDeps & Pick<CheckoutDeps, 'logger'>,
  asks: SessionSettlement[],
  answerOne: SessionAnswer,
): Promise<void> {
  const found = await findCheckoutsOfSessions(deps.db, asks);
  const answer = (indexes: number[], outcome: PromiseSettledResult<Settled>) => {
    // Only the first ask's event was written with the settlement: the others' callers mark theirs.
    indexes.forEach((n, k) => {
      if (k === 0 || outcome.status === 'rejected') answerOne(n, outcome);
      else answerOne(n, { status: 'fulfilled', value: withoutAlongside(outcome.value) });
    });
  };
  const groups = new Map<string, Group>();
  found.forEach((row, n) => {
    if (!row) return answerOne(n, { status: 'fulfilled', value: null });
    if (row.eventProcessed) {
      answerOne(n, {
        status: 'fulfilled',
        value: { status: row.status, purchaseId: row.purchaseId, eventProcessed: true },
      });
      return;
    }
    const group = groups.get(row.id);
    if (group) group.asks.push(n);
    else groups.set(row.id, { found: row, asks: [n] });
  });
  const candidates = [...groups.values()].filter(
    (g) => g.found.status === 'open' && g.found.amountTotal !== 0 && g.found.sessionIdentifier !== null,
  );
  const others = [...groups.values()].filter((g) => !candidates.includes(g));
  const asked = await Promise.allSettled(
    candidates.map((g) => deps.provider.retrieveCheckout(g.found.sessionIdentifier!)),
  );
  const paid: Paid[] = [];
  const alone: { group: Group; known?: ProviderCheckout }[] = others.map((group) => ({ group }));
  candidates.forEach((group, i) => {
    const session = asked[i]!;
    if (session.status === 'rejected') answer(group.asks, session);
    else if (session.value.status === 'paid' && session.value.charge)
      paid.push({ group, paid: session.value as PaidCheckout });
    else alone.push({ group, known: session.value });
  });
  const one = async ({ group, known }: { group: Group; known?: ProviderCheckout }) => {
    const [outcome] = await Promise.allSettled([settle(deps, group.found, asks[group.asks[0]!]!.alongside, known)]);
    answer(group.asks, outcome!);
  };
  const together = async () => {
    let outcomes: SettleOutcome[];
    try {
      outcomes = await settleTogether(deps, paid, asks);
    } catch (error) {
      // Each on its own: the one that failed the batch fails alone.
      deps.logger.warn({ err: error, checkouts: paid.length }, 'Batch of fulfilments failed; settling one by one');
      await eachAtMost(ALONE_AT_ONCE, paid, ({ group, paid: known }) => one({ group, known }));
      return;
    }
    if (outcomes.some((o) => o.email)) deps.outbox.flushInBackground();
    const settled = paid.map(({ group }, i) => ({ group, outcome: outcomes[i]! }));
    // Answered at once, but for a refund to ask of the provider first (a few at a time).
    for (const { group, outcome } of settled)
      if (!outcome.refund) answer(group.asks, { status: 'fulfilled', value: settledOf(outcome) });
    await eachAtMost(
      ALONE_AT_ONCE,
      settled.filter(({ outcome }) => outcome.refund),
      async ({ group, outcome }) => {
        const [refunded] = await Promise.allSettled([afterCommit(deps, outcome)]);
        answer(group.asks, refunded!);
      },
    );
  };
  await Promise.all([together(), eachAtMost(ALONE_AT_ONCE, alone, one)]);
}

/** `work` for every item, at most `limit` at a time. */
async function eachAtMost<T>(limit: number, items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

type Paid = { group: Group; paid: PaidCheckout };

const withoutAlongside = ({ status, purchaseId }: Settled): Settled => ({ status, purchaseId });

/** The paid checkouts' settlements in one transaction, under one statement's locks, in the order of `paid`. */
async function settleTogether(deps: SettleDeps, paid: Paid[], asks: SessionSettlement[]): Promise<SettleOutcome[]> {
  if (paid.length === 0) return [];
  const accountId = await deps.provider.accountId();
  const byCheckout = new Map(paid.map((p) => [p.group.found.id, p]));
  return deps.db.transaction(async (trx) => {
    const payments = (await lockCheckouts(trx, [...byCheckout.keys()], accountId)).map((locked) => {
      const { group, paid: known } = byCheckout.get(locked.checkout.id)!;
      const ask = asks[group.asks[0]!]!;
      return { locked, paid: known, alongside: ask.alongside, event: { ...ask.event, type: ask.eventType } };
    });
    const { settled, rest, invoices } = await settlePlainTogether(deps, trx, payments, accountId);
    // The others, one by one, after the plain ones' writes (which their checks then see).
    for (const { locked, paid: known, alongside } of rest)
      settled.set(locked.checkout.id, await settleLockedCheckout(deps, trx, locked, accountId, known, alongside));
    // Last: the plain ones' invoices, numbered by their insert, the counter row held from here to the commit.
    await issueNumbered(trx, invoices);
    return paid.map(({ group }) => settled.get(group.found.id)!);
  });
}

/** A committed settlement's refund, asked of the provider (never under the locks); its answer. */
async function afterCommit({ refunds }: SettleDeps, outcome: SettleOutcome): Promise<Settled> {
  if (outcome.refund) {
    const { apology, ...reserved } = outcome.refund;
    await refunds.completeRefund(reserved, async () => apology);
  }
  return settledOf(outcome);
}

const settledOf = (outcome: SettleOutcome): Settled => ({
  status: outcome.status,
  purchaseId: outcome.purchaseId,
  ...(outcome.alongside && { alongside: true as const }),
});
