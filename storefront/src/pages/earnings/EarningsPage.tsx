import { Link } from 'wouter';
import { getEarnings, type EarningsAnswer } from '../../api/earnings';
import { LoadStatus } from '../../LoadStatus';
import { RequireSignIn } from '../../RequireSignIn';
import { useAccountAsync } from '../../useAccountAsync';
import { useDocumentTitle } from '../../useDocumentTitle';
import { BalanceCards } from './BalanceCards';
import { EarningsLines } from './EarningsLines';
import { MonthlyChart } from './MonthlyChart';
import { PayoutList } from './PayoutList';
import { ProductMonths } from './ProductMonths';
import { Statements } from './Statements';

/**
 * /earnings: what an author or contributor earned from their products' revenue splits (docs/domain.md §19.1): the
 * balance per currency, earnings per month, sales per product and month, the ledger's lines, payouts, and monthly
 * statements to download. Someone who earns nothing is told how earnings come about.
 */
export function EarningsPage() {
  useDocumentTitle('Earnings');
  return <RequireSignIn>{() => <Earnings />}</RequireSignIn>;
}

function Earnings() {
  const earnings = useAccountAsync(() => getEarnings());
  return (
    <section className="earnings">
      <h1>Earnings</h1>
      {earnings.status !== 'ready' ? (
        <LoadStatus state={earnings} retry={earnings.retry} what="your earnings" />
      ) : (
        <EarningsView earnings={earnings.data} />
      )}
    </section>
  );
}

function EarningsView({ earnings }: { earnings: EarningsAnswer }) {
  if (earnings.balances.length === 0 && earnings.payouts.length === 0)
    return (
      <div className="notice">
        <p>
          You have no earnings yet. When a product you are an owner or contributor of sells, your share of each sale
          appears here, with statements to download each month.
        </p>
        <p>
          {earnings.payee
            ? 'Your products have not sold yet.'
            : 'To earn from a product, ask the school to add you to its revenue split.'}{' '}
          Meanwhile, <Link to="/learning">carry on learning</Link>.
        </p>
      </div>
    );
  return (
    <>
      <p className="hint">
        Your share of each sale, less tax and the payment fee, as the school’s ledger recorded it. A sale becomes
        payable {earnings.holdDays} days after it was made; refunds and lost disputes are taken back at once.
      </p>
      <BalanceCards balances={earnings.balances} />
      <MonthlyChart months={earnings.months} />
      <ProductMonths months={earnings.months} />
      <EarningsLines first={earnings.lines} months={earnings.statementMonths} />
      <PayoutList payouts={earnings.payouts} />
      <Statements months={earnings.statementMonths} />
    </>
  );
}
