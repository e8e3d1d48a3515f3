import { useEffect, useState, type RefObject } from 'react';
import { Link, useParams } from 'wouter';
import { isApiError } from '../api/client';
import { getInvoice, invoicePdfUrl, type InvoiceDocument } from '../api/invoices';
import { countryName, formatDate } from '../format';
import { LoadStatus } from '../LoadStatus';
import { formatMoney } from '../../../api/src/shared/money';
import { ratePercent } from '../../../api/src/shared/tax-text';
import { RequireSignIn } from '../RequireSignIn';
import { useFocusOnChange } from '../useFocusOnChange';
import { useAccountAsync } from '../useAccountAsync';
import { useDocumentTitle } from '../useDocumentTitle';
import { CorrectBuyerForm } from './invoice/CorrectBuyerForm';

/**
 * /invoices/:id: one of the payer's own invoices or credit notes as issued, laid out to print (the print stylesheet
 * hides the site around it), with its PDF, its other versions and its credit notes.
 */
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
          <Link to="/invoices">Invoices</Link>.
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

/** "VAT 19 % (included)", "Sales tax 6.5 % (added)", "VAT (reverse charge)". */
function taxLabel(tax: NonNullable<InvoiceDocument['tax']>): string {
  if (tax.reverseCharge) return `${tax.name} (reverse charge, 0 %)`;
  return `${tax.name} ${ratePercent(tax.rate)} (${tax.inclusive ? 'included' : 'added'})`;
}

function Party({ party, title }: { party: InvoiceDocument['buyer'] | InvoiceDocument['seller']; title: string }) {
  const address = party.address.split('\n').filter((line) => line.trim());
  const country = party.country ? countryName(party.country) : '';
  // A postal address often ends with its country already: it is not shown twice.
  const named = country !== '' && address.at(-1)?.trim().toLowerCase() === country.toLowerCase();
  const lines = [
    'company' in party ? party.company : '',
    party.name,
    ...address,
    named ? '' : country,
    'vatId' in party && party.vatId ? `VAT ID ${party.vatId}` : '',
    'taxId' in party && party.taxId ? `VAT ID ${party.taxId}` : '',
    party.email ?? '',
  ].filter((line) => line.trim());
  return (
    <>
      <dt>{title}</dt>
      <dd>
        {lines.map((line, i) => (
          <span key={i} className="invoice-party-line">
            {line}
          </span>
        ))}
      </dd>
    </>
  );
}

function InvoiceView({
  invoice: loaded,
  headingRef,
}: {
  invoice: InvoiceDocument;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const [invoice, setInvoice] = useState(loaded);
  const [notice, setNotice] = useState<string | null>(null);
  const money = (amount: number) => formatMoney(amount, invoice.currency);
  const currency = invoice.currency.toUpperCase();
  const credit = invoice.kind === 'credit-note';
  const kindName = credit ? 'Credit note' : 'Invoice';
  const latest = !credit && !invoice.correctedBy;

  useEffect(() => setInvoice(loaded), [loaded]);
  useEffect(() => {
    const previous = document.title;
    document.title = `${kindName} ${invoice.number}`; // also the file name when saved as PDF
    return () => {
      document.title = previous;
    };
  }, [invoice.number, kindName]);

  return (
    <article className="invoice">
      <p className="no-print">
        <Link to="/invoices">← Invoices</Link>
      </p>
      <h1 ref={headingRef} tabIndex={-1}>
        {kindName} {invoice.number}
      </h1>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {invoice.correctedBy && (
        <p className="notice">
          This invoice was corrected by{' '}
          <Link to={`/invoices/${invoice.correctedBy.id}`}>invoice {invoice.correctedBy.number}</Link>. It stays as it
          was issued.
        </p>
      )}
      <dl className="invoice-facts">
        <dt>{kindName} number</dt>
        <dd>{invoice.number}</dd>
        <dt>Date</dt>
        <dd>
          <time dateTime={invoice.issuedAt}>{formatDate(invoice.issuedAt)}</time>
        </dd>
        {formatDate(invoice.suppliedAt) !== formatDate(invoice.issuedAt) && (
          // Issued on another day than the sale (an earlier charge's invoice), or a refund's date on a credit note.
          <>
            <dt>Date of supply</dt>
            <dd>
              <time dateTime={invoice.suppliedAt}>{formatDate(invoice.suppliedAt)}</time>
            </dd>
          </>
        )}
        {invoice.corrects && (
          <>
            <dt>Corrects</dt>
            <dd>
              <Link to={`/invoices/${invoice.corrects.id}`}>Invoice {invoice.corrects.number}</Link>
            </dd>
          </>
        )}
        {invoice.invoice && (
          <>
            <dt>Credits</dt>
            <dd>
              <Link to={`/invoices/${invoice.invoice.id}`}>Invoice {invoice.invoice.number}</Link>
            </dd>
          </>
        )}
        <Party party={invoice.seller} title="From" />
        <Party party={invoice.buyer} title="Billed to" />
      </dl>
      <table className="invoice-table">
        <caption>
          {kindName} {invoice.number}, amounts in {currency}
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
          {invoice.lines.map((line, i) => (
            <tr key={i}>
              <td>{line.description}</td>
              <td className="num">{line.quantity}</td>
              <td className="num">{money(line.unitAmount)}</td>
              <td className="num">{money(line.amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              Subtotal
            </th>
            <td className="num">{money(invoice.subtotal - invoice.discount)}</td>
          </tr>
          <tr>
            <th scope="row" colSpan={3}>
              Taxable amount
            </th>
            <td className="num">{money(invoice.taxable)}</td>
          </tr>
          {invoice.tax && (
            <tr>
              <th scope="row" colSpan={3}>
                {taxLabel(invoice.tax)}
              </th>
              <td className="num">{money(invoice.tax.amount)}</td>
            </tr>
          )}
          <tr className="invoice-total">
            <th scope="row" colSpan={3}>
              {credit ? 'Total credited' : 'Total'}
            </th>
            <td className="num">{money(invoice.total)}</td>
          </tr>
          {!credit && invoice.refunded > 0 && (
            <tr>
              <th scope="row" colSpan={3}>
                Refunded so far
              </th>
              <td className="num">−{money(invoice.refunded)}</td>
            </tr>
          )}
        </tfoot>
      </table>
      {invoice.notes.map((note) => (
        <p key={note} className="invoice-note">
          {note}
        </p>
      ))}
      <p className="hint">All amounts in {currency}.</p>
      {invoice.creditNotes.length > 0 && (
        <section className="invoice-related">
          <h2>Credit notes</h2>
          <ul>
            {invoice.creditNotes.map((note) => (
              <li key={note.id}>
                <Link to={`/invoices/${note.id}`}>Credit note {note.number}</Link>,{' '}
                <time dateTime={note.issuedAt}>{formatDate(note.issuedAt)}</time>: {money(note.total)}
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className="actions no-print">
        <a className="button-link" href={invoicePdfUrl(invoice.id)} download={`${invoice.number}.pdf`}>
          Download PDF
        </a>
        <button type="button" className="button-quiet" onClick={() => window.print()}>
          Print
        </button>
      </div>
      {latest && (
        <div className="no-print">
          <CorrectBuyerForm
            invoice={invoice}
            corrected={(answer) => {
              setNotice(`Corrected invoice ${answer.invoice.number} issued. ${answer.notice}`);
              setInvoice(answer.invoice);
            }}
          />
        </div>
      )}
    </article>
  );
}
