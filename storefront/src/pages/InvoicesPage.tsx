import { Link } from 'wouter';
import { listInvoices } from '../api/invoices';
import { formatDate } from '../format';
import { LoadStatus } from '../LoadStatus';
import { formatMoney } from '../../../api/src/shared/money';
import { RequireSignIn } from '../RequireSignIn';
import { useAccountAsync } from '../useAccountAsync';
import { useDocumentTitle } from '../useDocumentTitle';

/**
 * /invoices: the invoices and credit notes of everything the learner paid for, newest first. They stay here when a
 * purchase is given to someone else (the payer keeps the invoice); a purchase someone gave them has none.
 */
export function InvoicesPage() {
  useDocumentTitle('Invoices');
  return <RequireSignIn>{() => <Invoices />}</RequireSignIn>;
}

function Invoices() {
  const invoices = useAccountAsync(listInvoices);
  return (
    <section>
      <h1>Invoices</h1>
      <p className="hint">
        Invoices and credit notes for what you paid. A purchase you gave away keeps its invoice here; one given to you
        has none. Your purchases are in <Link to="/purchases">My purchases</Link>.
      </p>
      {invoices.status !== 'ready' ? (
        <LoadStatus state={invoices} retry={invoices.retry} what="your invoices" />
      ) : invoices.data.length === 0 ? (
        <p>No invoices yet: they appear here once you pay for something.</p>
      ) : (
        <table className="invoice-table invoices-list">
          <caption>Your invoices and credit notes, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Date</th>
              <th scope="col">For</th>
              <th scope="col" className="num">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {invoices.data.map((invoice) => (
              <tr key={invoice.id}>
                <td>
                  <Link to={`/invoices/${invoice.id}`}>
                    {invoice.kind === 'credit-note' ? 'Credit note' : 'Invoice'} {invoice.number}
                  </Link>
                  {invoice.corrected && <span className="hint"> (corrected since)</span>}
                </td>
                <td>
                  <time dateTime={invoice.issuedAt}>{formatDate(invoice.issuedAt)}</time>
                </td>
                <td>{invoice.description}</td>
                <td className="num">
                  {invoice.kind === 'credit-note' ? '−' : ''}
                  {formatMoney(invoice.total, invoice.currency)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
