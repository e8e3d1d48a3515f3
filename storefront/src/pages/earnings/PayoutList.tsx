import { formatMoney } from '../../../../api/src/shared/money';
import type { EarningsAnswer } from '../../api/earnings';
import { formatUtcDate } from './utcDate';

const STATUS_NAMES = { pending: 'On its way', paid: 'Paid', failed: 'Delayed: we retry it' } as const;

/** Money sent to them, newest first. */
export function PayoutList({ payouts }: { payouts: EarningsAnswer['payouts'] }) {
  return (
    <section aria-labelledby="earnings-payouts">
      <h2 id="earnings-payouts">Payouts</h2>
      {payouts.length === 0 ? (
        <p>No payouts yet: payouts are made on the first of each month once your payable balance is enough.</p>
      ) : (
        <div className="table-scroll">
          <table className="invoice-table earnings-payouts">
            <caption>Your payouts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Date (UTC)</th>
                <th scope="col">Status</th>
                <th scope="col">Reference</th>
                <th scope="col" className="num">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {payouts.map((payout) => {
                const when = payout.paidAt ?? payout.createdAt;
                return (
                  <tr key={payout.id}>
                    <td>
                      <time dateTime={when}>{formatUtcDate(when)}</time>
                    </td>
                    <td>{STATUS_NAMES[payout.status]}</td>
                    <td>{payout.reference ?? '—'}</td>
                    <td className="num">{formatMoney(payout.amount, payout.currency)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
