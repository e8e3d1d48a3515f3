import { LOCALE } from './readerClock';

/** Formats integer cents for people; the only place cents become a decimal string. */
export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat(LOCALE, { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}
