import { formatMoney } from '../../../../api/src/shared/money';
import type { EarningsAnswer } from '../../api/earnings';

/** One card per currency: the balance, and how it is made up. */
export function BalanceCards({ balances }: { balances: EarningsAnswer['balances'] }) {
  return (
    <section aria-labelledby="earnings-balances">
      <h2 id="earnings-balances">Balance</h2>
      <ul className="earnings-cards">
        {balances.map((b) => {
          const money = (amount: number) => formatMoney(amount, b.currency);
          return (
            <li key={b.currency} className="earnings-card">
              <h3>{b.currency.toUpperCase()}</h3>
              <p className="earnings-balance">{money(b.balance)}</p>
              <dl>
                <dt>Earned</dt>
                <dd>{money(b.earned)}</dd>
                <dt>Clawed back</dt>
                <dd>{money(b.clawedBack ? -b.clawedBack : 0)}</dd>
                <dt>Paid to you</dt>
                <dd>{money(b.paid)}</dd>
                <dt>In payouts on their way</dt>
                <dd>{money(b.inPayouts)}</dd>
                <dt>Payable at the next run</dt>
                <dd>{money(b.payable)}</dd>
                <dt>Still held</dt>
                <dd>{money(b.held)}</dd>
              </dl>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
