import { useEffect } from 'react';
import { Link } from '../router';
import { isApiError } from '../api/client';
import { listMyPurchases, type MyPurchase } from '../api/purchases';
import { countryName, formatDate } from '../format';
import { LoadStatus } from '../LoadStatus';
import { formatMoney } from '../money';
import { RequireSignIn } from '../RequireSignIn';
import { useSession } from '../session';
import { useAsync } from '../useAsync';
import { useDocumentTitle } from '../useDocumentTitle';
import { mayTransfer, TransferControl } from './TransferControl';

/** /purchases: everything the learner bought (or got a team seat for), newest first, with invoices. */
export function MyPurchasesPage() {
  return <RequireSignIn>{() => <MyPurchases />}</RequireSignIn>;
}

function MyPurchases() {
  const purchases = useAsync(listMyPurchases);
  const { refresh } = useSession();
  const failure = purchases.status === 'error' ? purchases.error : null;
  useDocumentTitle('My purchases');

  useEffect(() => {
    if (isApiError(failure, 'unauthenticated')) refresh();
  }, [failure, refresh]);

  return (
    <section>
      <h1>My purchases</h1>
      <LoadStatus state={purchases} retry={purchases.retry} what="your purchases" />
      {purchases.status === 'ready' && purchases.data.length === 0 && (
        <p className="empty">
          You have not bought anything yet. <Link to="/">Browse the courses</Link>
        </p>
      )}
      {purchases.status === 'ready' && purchases.data.length > 0 && (
        <ul className="purchase-list">
          {purchases.data.map((purchase) => (
            <PurchaseItem key={purchase.id} purchase={purchase} />
          ))}
        </ul>
      )}
    </section>
  );
}

function PurchaseItem({ purchase }: { purchase: MyPurchase }) {
  const titleId = `purchase-${purchase.id}`;
  const status = describeStatus(purchase);
  return (
    <li className="purchase-card">
      <div>
        <h2 id={titleId}>
          <Link to={`/products/${encodeURIComponent(purchase.product.slug ?? purchase.product.id)}`}>{purchase.product.name}</Link>
        </h2>
        <dl className="device-facts">
          <dt>Status</dt>
          <dd className={`purchase-status purchase-status-${purchase.status.toLowerCase()}`}>{status}</dd>
          <dt>Paid</dt>
          <dd>{purchase.seat ? 'A seat from a team purchase' : formatMoney(purchase.totalAmount, purchase.currency)}</dd>
          <dt>Date</dt>
          <dd>
            <time dateTime={purchase.createdAt}>{formatDate(purchase.createdAt)}</time>
          </dd>
          {purchase.team && (
            <>
              <dt>Team seats</dt>
              <dd>
                {purchase.team.seats} {purchase.team.seats === 1 ? 'seat' : 'seats'}, {purchase.team.used} claimed
              </dd>
            </>
          )}
        </dl>
      </div>
      {(purchase.team || purchase.invoiceId) && (
        <div className="purchase-actions">
          {purchase.team && (
            <Link className="button-link" to={`/teams/${encodeURIComponent(purchase.id)}`} aria-describedby={titleId}>
              Manage team
            </Link>
          )}
          {purchase.invoiceId && (
            <Link className="button-link button-link-quiet" to={`/invoices/${encodeURIComponent(purchase.invoiceId)}`} aria-describedby={titleId}>
              Invoice
            </Link>
          )}
        </div>
      )}
      {mayTransfer(purchase) && <TransferControl purchase={purchase} titleId={titleId} />}
    </li>
  );
}

/** The purchase status in plain words. */
function describeStatus(purchase: MyPurchase): string {
  switch (purchase.status) {
    case 'Valid':
      return 'Active: you have full access.';
    case 'Restricted':
      return purchase.country
        ? `Regional price: you can use this course only from ${countryName(purchase.country)}.`
        : 'Regional price: you can use this course only from the country you bought it in.';
    case 'Refunded':
      return 'Refunded: your money was returned and the course is no longer available to you.';
    case 'Disputed':
      return 'Payment disputed: access is paused until the dispute with your bank is settled.';
    case 'Banned':
      return 'Access removed. Contact support if you think this is a mistake.';
    default:
      return purchase.status;
  }
}
