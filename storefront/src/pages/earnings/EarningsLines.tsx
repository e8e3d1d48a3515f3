import { useId, useState } from 'react';
import { formatMoney } from '../../../../api/src/shared/money';
import { getEarnings, type EarningsAnswer, type EarningsLine } from '../../api/earnings';
import { LoadStatus } from '../../LoadStatus';
import { useAccountAsync } from '../../useAccountAsync';
import { formatUtcDate } from './utcDate';

const KIND_NAMES: Record<EarningsLine['kind'], string> = {
  sale: 'Sale',
  refund: 'Refund',
  dispute: 'Dispute',
  'dispute-won': 'Dispute won',
};

/** "0.5000" → "50 %" (four decimals of a share are two of a percentage). */
const percentText = (percent: string) => `${Number((Number(percent) * 100).toFixed(2))} %`;

/**
 * The ledger's lines for them, newest first, a page at a time, of one month or all. The first page of all months
 * came with the page's answer; another page or month is asked for.
 */
export function EarningsLines({ first, months }: { first: EarningsAnswer['lines']; months: string[] }) {
  const [month, setMonth] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const fresh = month === null && page === 1;
  const loaded = useAccountAsync(
    async () => (fresh ? first : (await getEarnings({ month, page })).lines),
    [month, page],
  );
  const selectId = useId();
  // The first page is shown at once: no "Loading" between the page's answer and its own copy of it.
  const arrived = fresh ? first : loaded.status === 'ready' ? loaded.data : null;
  // While another page or month loads, the last one stays (marked busy), so the table and the Newer/Older button
  // that asked keep their place and the keyboard's focus; only a failure replaces them.
  const [shown, setShown] = useState(first);
  if (arrived && arrived !== shown) setShown(arrived);
  const busy = !arrived && loaded.status === 'loading';
  const lines = arrived ?? (busy ? shown : null);
  const pages = lines ? Math.max(1, Math.ceil(lines.total / lines.pageSize)) : 1;

  return (
    <section aria-labelledby="earnings-lines" aria-busy={busy}>
      <h2 id="earnings-lines">Lines</h2>
      <p className="field earnings-filter">
        <label htmlFor={selectId}>Month</label>
        <select
          id={selectId}
          value={month ?? ''}
          onChange={(event) => {
            setMonth(event.target.value || null);
            setPage(1);
          }}
        >
          <option value="">All months</option>
          {months.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </p>
      {!lines ? (
        <LoadStatus state={loaded} retry={loaded.retry} what="your lines" />
      ) : lines.data.length === 0 ? (
        <p>No lines in this month.</p>
      ) : (
        <>
          <div className="table-scroll">
            <table className="invoice-table earnings-lines">
              <caption>
                Your share of each sale, refund and dispute, newest first ({lines.total} in all, page {lines.page} of{' '}
                {pages})
              </caption>
              <thead>
                <tr>
                  <th scope="col">Date (UTC)</th>
                  <th scope="col">Product</th>
                  <th scope="col">Kind</th>
                  <th scope="col" className="num">
                    Gross
                  </th>
                  <th scope="col" className="num">
                    Tax
                  </th>
                  <th scope="col" className="num">
                    Fee
                  </th>
                  <th scope="col" className="num">
                    Your share
                  </th>
                  <th scope="col" className="num">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {lines.data.map((line) => {
                  const money = (amount: number) => formatMoney(amount, line.currency);
                  return (
                    <tr key={line.id}>
                      <td>
                        <time dateTime={line.createdAt}>{formatUtcDate(line.createdAt)}</time>
                      </td>
                      <td>{line.productName}</td>
                      <td>{KIND_NAMES[line.kind]}</td>
                      <td className="num">{money(line.gross)}</td>
                      <td className="num">{money(line.tax)}</td>
                      <td className="num">{money(line.fee)}</td>
                      <td className="num">{line.percent === null ? '—' : percentText(line.percent)}</td>
                      <td className="num">{money(line.amount)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {pages > 1 && (
            <nav aria-label="Pages of lines" className="earnings-pages">
              {/* aria-disabled, not disabled: a button that turns disabled under the keyboard drops its focus. */}
              <button type="button" aria-disabled={page <= 1} onClick={() => page > 1 && setPage(page - 1)}>
                Newer
              </button>
              <span>
                Page {page} of {pages}
              </span>
              <button type="button" aria-disabled={page >= pages} onClick={() => page < pages && setPage(page + 1)}>
                Older
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
