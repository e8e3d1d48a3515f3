import { Link } from 'wouter';
import { listProducts, type StoreProduct } from '../api/catalog';
import { coursePath } from '../api/learning';
import { listMyPurchases, type MyPurchase } from '../api/purchases';
import { countryName, formatDate } from '../format';
import { LoadStatus } from '../LoadStatus';
import { formatMoney } from '../../../api/src/shared/money';
import { RequireSignIn } from '../RequireSignIn';
import { useDocumentTitle } from '../useDocumentTitle';
import { mayTransfer, TransferControl } from './TransferControl';
import { useAccountAsync } from '../useAccountAsync';

/** /purchases: everything the learner bought (or got a team seat for), newest first, with invoices. */
export function MyPurchasesPage() {
  return <RequireSignIn>{() => <MyPurchases />}</RequireSignIn>;
}

type Courses = StoreProduct['courses'];

/** The courses each product grants, from the catalog; without it the page still lists the purchases. */
async function coursesByProduct(): Promise<Map<string, Courses>> {
  try {
    return new Map((await listProducts()).map((p) => [p.id, p.courses]));
  } catch {
    return new Map();
  }
}

function MyPurchases() {
  const purchases = useAccountAsync(async () => {
    const [list, courses] = await Promise.all([listMyPurchases(), coursesByProduct()]);
    // Products the learner can study through a purchase of their own or a seat (not through a team purchase).
    const studying = new Set(list.filter((p) => grantsAccess(p) && !p.team).map((p) => p.product.id));
    return list.map((purchase) => ({
      purchase,
      courses: courses.get(purchase.product.id) ?? [],
      studying: studying.has(purchase.product.id),
    }));
  });
  useDocumentTitle('My purchases');

  return (
    <section>
      <h1>My purchases</h1>
      <p className="hint">
        Invoices and credit notes for everything you paid for are in <Link to="/invoices">Invoices</Link>.
      </p>
      <LoadStatus state={purchases} retry={purchases.retry} what="your purchases" />
      {purchases.status === 'ready' && purchases.data.length === 0 && (
        <p className="empty">
          You have not bought anything yet. <Link to="/">Browse the courses</Link>
        </p>
      )}
      {purchases.status === 'ready' && purchases.data.length > 0 && (
        <ul className="purchase-list">
          {purchases.data.map(({ purchase, courses, studying }) => (
            <PurchaseItem key={purchase.id} purchase={purchase} courses={courses} studying={studying} />
          ))}
        </ul>
      )}
    </section>
  );
}

const grantsAccess = (purchase: MyPurchase) => purchase.status === 'Valid' || purchase.status === 'Restricted';

/** A purchase that opens its courses: valid (or regional), and not a team purchase (its owner takes a seat). */
const opensCourses = (purchase: MyPurchase) => grantsAccess(purchase) && !purchase.team;

interface ItemProps {
  purchase: MyPurchase;
  courses: Courses;
  /** The learner studies this product through another purchase or a seat (a team purchase's seats are then to give away). */
  studying: boolean;
}

function PurchaseItem({ purchase, courses, studying }: ItemProps) {
  const titleId = `purchase-${purchase.id}`;
  const status = describeStatus(purchase, studying);
  const team = purchase.team;
  const courseLinks = opensCourses(purchase) ? courses : [];
  // A team purchase opens no course: its buyer takes a seat on the team page, like anyone else.
  // A gift's seat is for the person it is given to, never its buyer.
  const takeSeat =
    team !== null && !team.gift && !team.addedSeats && grantsAccess(purchase) && !team.ownerHasSeat && !studying;
  return (
    <li className="purchase-card">
      <div>
        <h2 id={titleId}>
          <Link to={`/products/${encodeURIComponent(purchase.product.slug ?? purchase.product.id)}`}>
            {purchase.product.name}
          </Link>
        </h2>
        <dl className="device-facts">
          <dt>Status</dt>
          <dd className={`purchase-status purchase-status-${purchase.status.toLowerCase()}`}>{status}</dd>
          <dt>{purchase.givenBy ? 'Given' : 'Paid'}</dt>
          <dd>
            {purchase.givenBy
              ? givenInWords(purchase.givenBy)
              : purchase.seat
                ? purchase.seatFromGift
                  ? 'A gift'
                  : 'A seat from a team purchase'
                : formatMoney(purchase.totalAmount, purchase.currency)}
          </dd>
          <dt>Date</dt>
          <dd>
            <time dateTime={purchase.createdAt}>{formatDate(purchase.createdAt)}</time>
          </dd>
          {team?.gift && (
            <>
              <dt>Gift</dt>
              <dd>{team.used > 0 ? 'Claimed' : 'Not claimed yet: send its claim link from the gift’s page.'}</dd>
            </>
          )}
          {team && !team.gift && (
            <>
              <dt>Team seats</dt>
              <dd>
                {team.addedSeats ? 'Your team now has ' : ''}
                {team.seats} {team.seats === 1 ? 'seat' : 'seats'}, {team.used} claimed
              </dd>
            </>
          )}
        </dl>
      </div>
      {(team || purchase.invoiceId || courseLinks.length > 0) && (
        <div className="purchase-actions">
          {courseLinks.map((course) => (
            <Link key={course.id} className="button-link" to={coursePath(course)} aria-describedby={titleId}>
              {courseLinks.length === 1 ? 'Go to the course' : `Go to ${course.title}`}
            </Link>
          ))}
          {takeSeat && (
            <Link className="button-link" to={`/teams/${encodeURIComponent(team.teamId)}`} aria-describedby={titleId}>
              Take your seat
            </Link>
          )}
          {team && !team.addedSeats && (
            <Link
              className={takeSeat ? 'button-link button-link-quiet' : 'button-link'}
              to={`/teams/${encodeURIComponent(team.teamId)}`}
              aria-describedby={titleId}
            >
              {team.gift ? 'Your gift’s page' : 'Manage team'}
            </Link>
          )}
          {team?.addedSeats && (
            // A later purchase of more seats: one team, so it leads to the team its seats joined.
            <Link
              className="button-link button-link-quiet"
              to={`/teams/${encodeURIComponent(team.teamId)}`}
              aria-describedby={titleId}
            >
              {team.quantity
                ? `Added ${team.quantity} ${team.quantity === 1 ? 'seat' : 'seats'} to your team`
                : 'Added seats to your team'}
            </Link>
          )}
          {purchase.invoiceId && (
            <Link
              className="button-link button-link-quiet"
              to={`/invoices/${encodeURIComponent(purchase.invoiceId)}`}
              aria-describedby={titleId}
            >
              Invoice
            </Link>
          )}
        </div>
      )}
      {mayTransfer(purchase) && <TransferControl purchase={purchase} titleId={titleId} />}
    </li>
  );
}

/** A purchase someone else paid for, said as given: the invoice stays the payer's, so there is none here. */
function givenInWords(given: NonNullable<MyPurchase['givenBy']>): string {
  const on = formatDate(given.at);
  switch (given.how) {
    case 'gift':
      return `A gift from ${given.name} (${on})`;
    case 'seat':
      return `A seat from a team purchase: ${given.name}’s team (${on})`;
    case 'move':
      return `Given to you by ${given.name}, moved by support (${on})`;
    default:
      return `Given to you by ${given.name} (${on})`;
  }
}

/** The purchase status in plain words; a team purchase never claims access (docs/domain.md §7). */
function describeStatus(purchase: MyPurchase, studying: boolean): string {
  if (purchase.team?.gift && grantsAccess(purchase)) {
    return 'Active gift: bought for someone else to study.';
  }
  if (purchase.team && grantsAccess(purchase)) {
    if (purchase.team.ownerHasSeat) return 'Active team purchase: you have taken a seat.';
    if (studying) return 'Active team purchase: seats to give away (you already have this course).';
    return 'Active team purchase: take a seat yourself to start learning.';
  }
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
    case 'Revoked':
      return purchase.seatFromGift
        ? 'Gift taken back: the person who gave it took it back. Your progress is kept if you get the course again.'
        : 'Seat removed: the team’s owner took this seat back. Your progress is kept if you get a seat again.';
    default:
      return purchase.status;
  }
}
