import { formatMoney } from './money';

/**
 * A sale's tax as the buyer reads it, on the product page and the test provider's hosted page: "Includes €7.98 VAT
 * (19 %)", "+ $3.19 sales tax (6.5 %)", or the reverse charge's notice. No dependencies, so the apps take it as it is.
 */

export interface TaxShown {
  name: string;
  /** Basis points, to a tenth (1497.5 = 14.975 %). */
  rate: number;
  amount: number;
  inclusive: boolean;
  reverseCharge: boolean;
}

/** A rate in basis points as a percentage: 1900 → "19 %", 650 → "6.5 %", 1497.5 → "14.975 %". */
export function ratePercent(bp: number): string {
  return `${Number((bp / 100).toFixed(3))} %`;
}

/** "Sales tax" reads "sales tax" inside a sentence; VAT, GST and HST stay as they are. */
const inSentence = (name: string) => (/^[A-Z]{2,}/.test(name) ? name : name.charAt(0).toLowerCase() + name.slice(1));

export function taxLineText(tax: TaxShown, currency: string): string {
  if (tax.reverseCharge) return `Reverse charge: ${tax.name} is accounted for by the buyer`;
  const amount = formatMoney(tax.amount, currency);
  const what = `${inSentence(tax.name)} (${ratePercent(tax.rate)})`;
  return tax.inclusive ? `Includes ${amount} ${what}` : `+ ${amount} ${what}`;
}
