// Switching a membership's interval mid-period (docs/domain.md §22): what is left of the period paid is credited.

/** The unused part of a period's price at `now`, in cents (rounded down: the school never credits a cent too many). */
export function unusedCredit(amount: number, period: { start: Date; end: Date }, now: Date): number {
  const length = period.end.getTime() - period.start.getTime();
  const left = Math.max(0, Math.min(length, period.end.getTime() - now.getTime()));
  return length > 0 ? Math.floor((amount * left) / length) : 0;
}
