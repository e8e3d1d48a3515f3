import { formatMoney } from '../../../../api/src/shared/money';
import type { EarningsAnswer } from '../../api/earnings';

const MONTHS = 12;
const SHORT = new Intl.DateTimeFormat('en', { month: 'short', timeZone: 'UTC' });
/** "2026-11" → "Nov". */
const shortMonth = (month: string) => SHORT.format(new Date(`${month}-01T00:00:00Z`));
const HEIGHT = 120;
const BAR = 28;
const GAP = 8;

/**
 * A bar per month of the last twelve with earnings, one chart per currency, in plain SVG (no chart library: the
 * storefront stays light). The figures are also in the table below it, so the chart is an image with a summary.
 */
export function MonthlyChart({ months }: { months: EarningsAnswer['months'] }) {
  const byCurrency = new Map<string, Map<string, number>>();
  for (const row of months) {
    const perMonth = byCurrency.get(row.currency) ?? new Map<string, number>();
    perMonth.set(row.month, (perMonth.get(row.month) ?? 0) + row.net);
    byCurrency.set(row.currency, perMonth);
  }
  if (byCurrency.size === 0) return null;
  return (
    <section aria-labelledby="earnings-chart">
      <h2 id="earnings-chart">Earnings by month</h2>
      {[...byCurrency].map(([currency, perMonth]) => {
        const shown = [...perMonth].sort(([a], [b]) => a.localeCompare(b)).slice(-MONTHS);
        const largest = Math.max(1, ...shown.map(([, net]) => Math.abs(net)));
        const width = shown.length * (BAR + GAP);
        const summary = shown.map(([month, net]) => `${month}: ${formatMoney(net, currency)}`).join(', ');
        return (
          <figure key={currency} className="earnings-chart">
            <svg
              role="img"
              aria-label={`Net earnings in ${currency.toUpperCase()} by month: ${summary}`}
              viewBox={`0 0 ${width} ${HEIGHT + 18}`}
              width={width}
              height={HEIGHT + 18}
            >
              {shown.map(([month, net], i) => {
                const height = Math.max(1, Math.round((Math.abs(net) / largest) * HEIGHT));
                return (
                  <g key={month}>
                    <rect
                      x={i * (BAR + GAP)}
                      y={HEIGHT - height}
                      width={BAR}
                      height={height}
                      className={net < 0 ? 'earnings-bar negative' : 'earnings-bar'}
                    >
                      <title>{`${month}: ${formatMoney(net, currency)}`}</title>
                    </rect>
                    <text x={i * (BAR + GAP) + BAR / 2} y={HEIGHT + 14} textAnchor="middle">
                      {shortMonth(month)}
                    </text>
                  </g>
                );
              })}
            </svg>
            <figcaption>{currency.toUpperCase()}, net per month (month below each bar)</figcaption>
          </figure>
        );
      })}
    </section>
  );
}
