import { toMajorUnits } from '../../api/src/shared/currency';
import { LOCALE } from './readerClock';

/**
 * Formats an amount in the currency's minor unit for people (4900 usd → "$49.00", 4000 jpy → "¥4,000"); the only
 * place amounts become a decimal string.
 */
export function formatMoney(amount: number, currency: string): string {
  return new Intl.NumberFormat(LOCALE, { style: 'currency', currency: currency.toUpperCase() }).format(
    toMajorUnits(amount, currency),
  );
}
