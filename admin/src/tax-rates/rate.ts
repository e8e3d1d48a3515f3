/**
 * A tax rate as people type and read it, a percentage with up to three decimals ("19", "6.5", "14.975"), and as the
 * API keeps it, basis points to a tenth (1900, 650, 1497.5). Converted through thousandths of a percent, an integer,
 * by string handling only: never a float's 14.974999….
 */

/** "14.975" → 1497.5; null when it is not a percentage with at most three decimals. */
export function percentToBp(text: string): number | null {
  const match = /^\s*(\d{1,3})(?:[.,](\d{0,3}))?\s*%?\s*$/.exec(text);
  if (!match) return null;
  const thousandths = Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(3, '0'));
  return thousandths / 10;
}

/** 1497.5 → "14.975", 1900 → "19", 650 → "6.5"; '' for no rate. */
export function bpToPercent(bp: number | string | null | undefined): string {
  if (bp === null || bp === undefined || bp === '' || Number.isNaN(Number(bp))) return '';
  const thousandths = Math.round(Number(bp) * 10);
  const whole = Math.floor(thousandths / 1000);
  const fraction = String(thousandths % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}
