import { statementUrl } from '../../api/earnings';

/** A statement per month with a line or a payout, to download as CSV or PDF. */
export function Statements({ months }: { months: string[] }) {
  return (
    <section aria-labelledby="earnings-statements">
      <h2 id="earnings-statements">Monthly statements</h2>
      {months.length === 0 ? (
        <p>Statements appear here for each month with a sale, a refund or a payout.</p>
      ) : (
        <ul className="earnings-statements">
          {months.map((month) => (
            <li key={month}>
              <span>{month}</span>{' '}
              <a href={statementUrl(month, 'csv')} download aria-label={`Statement for ${month}, CSV`}>
                CSV
              </a>{' '}
              <a href={statementUrl(month, 'pdf')} download aria-label={`Statement for ${month}, PDF`}>
                PDF
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
