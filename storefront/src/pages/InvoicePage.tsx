import { useEffect, type RefObject } from 'react';
import { Link, useParams } from 'wouter';
import { isApiError } from '../api/client';
import { getInvoice, type Invoice } from '../api/purchases';
import { countryName, formatDate } from '../format';
import { LoadStatus } from '../LoadStatus';
import { formatMoney } from '../../../api/src/shared/money';
import { RequireSignIn } from '../RequireSignIn';
import { useFocusOnChange } from '../useFocusOnChange';
import { useAccountAsync } from '../useAccountAsync';
import { useDocumentTitle } from '../useDocumentTitle';

/** /invoices/:id: one of the learner's own invoices, laid out to print (the print stylesheet hides the site around it). */
export function InvoicePage() {
  useDocumentTitle('Invoice'); // the invoice itself names its number once loaded
  return <RequireSignIn>{() => <InvoiceLoader />}</RequireSignIn>;
}

function InvoiceLoader() {
  const { id = '' } = useParams();
  const invoice = useAccountAsync(() => getInvoice(id), [id]);
  const failure = invoice.status === 'error' ? invoice.error : null;
  const notFound = isApiError(failure, 'not-found', 'validation-failed');
  const headingRef = useFocusOnChange<HTMLHeadingElement>(notFound ? 'not-found' : invoice.status);

  if (notFound) {
    return (
      <section>
        <h1 ref={headingRef} tabIndex={-1}>
          Invoice not found
        </h1>
        <p>
          There is no invoice with this address in your account. Your invoices are listed in{' '}
          <Link to="/purchases">My purchases</Link>.
        </p>
      </section>
    );
  }
  if (invoice.status !== 'ready') {
    return (
      <section>
        <h1 ref={headingRef} tabIndex={-1}>
          Invoice
        </h1>
        <LoadStatus state={invoice} retry={invoice.retry} what="the invoice" />
      </section>
    );
  }
  return <InvoiceView invoice={invoice.data} headingRef={headingRef} />;
}

function InvoiceView({ invoice, headingRef }: { invoice: Invoice; headingRef: RefObject<HTMLHeadingElement | null> }) {
  const money = (cents: number) => formatMoney(cents, invoice.currency);
  const currency = invoice.currency.toUpperCase();

  useEffect(() => {
    const previous = document.title;
    document.title = `Invoice ${invoice.number}`; // also the file name when saved as PDF
    return () => {
      document.title = previous;
    };
  }, [invoice.number]);

  return (
    <article className="invoice">
      <p className="no-print">
        <Link to="/purchases">← My purchases</Link>
      </p>
      <h1 ref={headingRef} tabIndex={-1}>
        Invoice
      </h1>
      <dl className="invoice-facts">
        <dt>Invoice number</dt>
        <dd>{invoice.number}</dd>
        <dt>Date</dt>
        <dd>
          <time dateTime={invoice.issuedAt}>{formatDate(invoice.issuedAt)}</time>
        </dd>
        <dt>Billed to</dt>
        <dd>
          {invoice.buyer.name && (
            <>
              {invoice.buyer.name}
              <br />
            </>
          )}
          {invoice.buyer.email}
          {invoice.country && (
            <>
              <br />
              {countryName(invoice.country)}
            </>
          )}
        </dd>
      </dl>
      <table className="invoice-table">
        <caption>
          Invoice {invoice.number}, amounts in {currency}
        </caption>
        <thead>
          <tr>
            <th scope="col">Description</th>
            <th scope="col" className="num">
              Quantity
            </th>
            <th scope="col" className="num">
              Unit price
            </th>
            <th scope="col" className="num">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>{invoice.line.description}</td>
            <td className="num">{invoice.line.quantity}</td>
            <td className="num">{money(invoice.line.unitAmount)}</td>
            <td className="num">{money(invoice.line.subtotal)}</td>
          </tr>
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              Subtotal
            </th>
            <td className="num">{money(invoice.line.subtotal)}</td>
          </tr>
          {invoice.discount > 0 && (
            <tr>
              <th scope="row" colSpan={3}>
                Discount
              </th>
              <td className="num">−{money(invoice.discount)}</td>
            </tr>
          )}
          {(invoice.credit ?? 0) > 0 && (
            <tr>
              <th scope="row" colSpan={3}>
                Upgrade credit
              </th>
              <td className="num">−{money(invoice.credit)}</td>
            </tr>
          )}
          <tr className="invoice-total">
            <th scope="row" colSpan={3}>
              Total
            </th>
            <td className="num">{money(invoice.total)}</td>
          </tr>
          {invoice.refunded > 0 && (
            <>
              <tr>
                <th scope="row" colSpan={3}>
                  Refunded
                </th>
                <td className="num">−{money(invoice.refunded)}</td>
              </tr>
              <tr>
                <th scope="row" colSpan={3}>
                  Net paid
                </th>
                <td className="num">{money(invoice.total - invoice.refunded)}</td>
              </tr>
            </>
          )}
        </tfoot>
      </table>
      <p className="hint">All amounts in {currency}.</p>
      <div className="actions no-print">
        <button type="button" onClick={() => window.print()}>
          Print
        </button>
      </div>
    </article>
  );
}
