import { formatMoney } from '../../../../api/src/shared/money';
import type { EarningsAnswer } from '../../api/earnings';

/** Sales per product and month: what each product earned them, newest month first. */
export function ProductMonths({ months }: { months: EarningsAnswer['months'] }) {
  if (months.length === 0) return null;
  return (
    <section aria-labelledby="earnings-products">
      <h2 id="earnings-products">Sales by product and month</h2>
      <div className="table-scroll">
        <table className="invoice-table">
          <caption>Your sales and their refunds per product and month, newest month first</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">Product</th>
              <th scope="col" className="num">
                Sales
              </th>
              <th scope="col" className="num">
                Earned
              </th>
              <th scope="col" className="num">
                Clawed back
              </th>
              <th scope="col" className="num">
                Net
              </th>
            </tr>
          </thead>
          <tbody>
            {months.map((row) => (
              <tr key={`${row.month}-${row.productId}-${row.currency}`}>
                <td>{row.month}</td>
                <td>{row.productName}</td>
                <td className="num">{row.sales}</td>
                <td className="num">{formatMoney(row.earned, row.currency)}</td>
                <td className="num">{formatMoney(row.clawedBack ? -row.clawedBack : 0, row.currency)}</td>
                <td className="num">{formatMoney(row.net, row.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
