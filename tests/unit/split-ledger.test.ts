import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adjustmentLines, saleLines, shareOf, type Line, type Split } from '../../api/src/shared/split-ledger';

const platform = (percent: number): Split => ({ type: 'platform', userId: null, share: shareOf(percent) });
const owner = (percent: number, userId = 'owner'): Split => ({ type: 'owner', userId, share: shareOf(percent) });
const contributor = (percent: number, userId = 'contributor'): Split => ({
  type: 'contributor',
  userId,
  share: shareOf(percent),
});
const sum = (lines: Line[]) => lines.reduce((s, l) => s + l.amount, 0);
const byRecipient = (lines: Line[]) => Object.fromEntries(lines.map((l) => [l.userId ?? l.type, l.amount]));

describe('sale lines', () => {
  it.each([
    // gross, fee, splits, expected per recipient
    ['no splits: the platform keeps the net', 10_000, 320, [], { platform: 9_680 }],
    ['platform 30 %, owner 70 %', 10_000, 320, [platform(0.3), owner(0.7)], { platform: 3_000, owner: 6_680 }],
    [
      'the fee comes after the platform share',
      4_900,
      172,
      [platform(0.2), owner(0.8)],
      { platform: 980, owner: 3_748 },
    ],
    [
      'owner and contributor split the rest 3:1',
      10_000,
      0,
      [platform(0.2), owner(0.6), contributor(0.2)],
      { platform: 2_000, owner: 6_000, contributor: 2_000 },
    ],
    ['a remainder cent goes to the largest share', 1_001, 0, [owner(0.5, 'a'), owner(0.5, 'b')], { a: 501, b: 500 }],
    [
      'only owners: they share the whole net',
      10_000,
      330,
      [owner(0.25, 'a'), owner(0.75, 'b')],
      { a: 2_417, b: 7_253 },
    ],
    [
      'a platform share above the net is capped at the net',
      100,
      33,
      [platform(0.9), owner(0.1)],
      { platform: 67, owner: 0 },
    ],
    [
      'splits under 100 % still pay out the whole net',
      10_000,
      0,
      [platform(0.1), owner(0.5)],
      { platform: 1_000, owner: 9_000 },
    ],
  ])('%s', (_name, gross, fee, splits, expected) => {
    const lines = saleLines(gross, fee, splits as Split[]);
    expect(byRecipient(lines)).toEqual(expected);
    expect(sum(lines)).toBe(gross - fee);
  });

  it('spreads a refund over the recipients in proportion to their sale lines', () => {
    const sale = saleLines(10_000, 320, [platform(0.3), owner(0.7)]);
    expect(byRecipient(adjustmentLines(-5_000, sale))).toEqual({ platform: -1_549, owner: -3_451 });
    expect(byRecipient(adjustmentLines(2_500, sale))).toEqual({ platform: 774, owner: 1_726 });
    expect(adjustmentLines(0, sale)).toEqual([]);
  });
});

const splitsArb = fc
  .tuple(
    fc.integer({ min: 0, max: 10_000 }),
    fc.array(
      fc.record({
        type: fc.constantFrom('owner' as const, 'contributor' as const),
        share: fc.integer({ min: 0, max: 10_000 }),
      }),
      { maxLength: 4 },
    ),
  )
  .map(([platformShare, people]) => {
    const splits: Split[] = platformShare ? [{ type: 'platform', userId: null, share: platformShare }] : [];
    let left = 10_000 - platformShare;
    for (const [i, person] of people.entries()) {
      const share = Math.min(left, person.share);
      left -= share;
      splits.push({ type: person.type, userId: `user-${i}`, share });
    }
    return splits;
  });

const chargeArb = fc.integer({ min: 100, max: 5_000_000 }).chain((gross) =>
  fc.record({
    gross: fc.constant(gross),
    fee: fc.integer({ min: 0, max: Math.floor(gross / 5) }),
    splits: splitsArb,
  }),
);

/** What happens to a charge after the sale: partial refunds, and disputes that are won or lost. */
const eventsArb = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('refund' as const), fraction: fc.double({ min: 0.01, max: 1, noNaN: true }) }),
    fc.record({ kind: fc.constant('dispute' as const), outcome: fc.constantFrom('won' as const, 'lost' as const) }),
  ),
  { maxLength: 6 },
);

describe('ledger invariants (property-based)', () => {
  it('a sale always sums to its net, with no line below zero', () => {
    fc.assert(
      fc.property(chargeArb, ({ gross, fee, splits }) => {
        const lines = saleLines(gross, fee, splits);
        expect(sum(lines)).toBe(gross - fee);
        for (const line of lines) expect(line.amount).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('after any refunds and disputes, a charge sums to net − refunded − disputes lost, and each recipient total is the sum of their lines', () => {
    fc.assert(
      fc.property(chargeArb, eventsArb, ({ gross, fee, splits }, events) => {
        const sale = saleLines(gross, fee, splits);
        const ledger: Line[] = [...sale];
        let refunded = 0;
        let lost = 0;
        for (const event of events) {
          const left = gross - refunded;
          if (left <= 0) break;
          if (event.kind === 'refund') {
            const amount = Math.max(1, Math.min(left, Math.round(left * event.fraction)));
            refunded += amount;
            ledger.push(...adjustmentLines(-amount, sale));
          } else {
            ledger.push(...adjustmentLines(-left, sale)); // funds withdrawn when the dispute opens
            if (event.outcome === 'won') ledger.push(...adjustmentLines(left, sale));
            else {
              lost += left;
              break; // a lost dispute ends the charge
            }
          }
        }
        expect(sum(ledger)).toBe(gross - fee - refunded - lost);
        const totals = new Map<string, number>();
        for (const line of ledger)
          totals.set(line.userId ?? line.type, (totals.get(line.userId ?? line.type) ?? 0) + line.amount);
        expect([...totals.values()].reduce((a, b) => a + b, 0)).toBe(sum(ledger));
        // A won dispute gives every recipient back exactly what it took.
        const recipients = new Set(sale.map((l) => l.userId ?? l.type));
        for (const recipient of recipients) expect(Number.isInteger(totals.get(recipient))).toBe(true);
      }),
    );
  });

  it('an adjustment sums to its amount exactly and never flips a recipient the other way', () => {
    fc.assert(
      fc.property(chargeArb, fc.integer({ min: -5_000_000, max: 5_000_000 }), ({ gross, fee, splits }, amount) => {
        const lines = adjustmentLines(amount, saleLines(gross, fee, splits));
        expect(sum(lines)).toBe(amount);
        for (const line of lines) expect(Math.sign(line.amount) * Math.sign(amount)).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});
