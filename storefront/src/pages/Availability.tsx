import { saleBlocker, type SaleBlocker, type StoreProduct } from '../api/catalog';
import { formatDate, formatDateTimeWithZone } from '../format';
import { deviceClock, useReaderClock, type ReaderClock } from '../readerClock';

/**
 * The state of a course that cannot be bought, in a few words ("Sold out"), dates in the reader's time zone (pass
 * useReaderClock() on server-rendered pages).
 */
export function blockedLabel(product: StoreProduct, blocker: SaleBlocker, clock: ReaderClock = deviceClock()): string {
  switch (blocker) {
    case 'sold-out':
      return 'Sold out';
    case 'not-open':
      return product.enrollment.opensAt
        ? `Enrollment closed — opens ${formatDateTimeWithZone(product.enrollment.opensAt, clock)}`
        : 'Enrollment closed';
    case 'closed':
      return 'Enrollment closed';
    case 'not-on-sale':
      return 'Not on sale yet';
  }
}

/** Seats left and the enrollment window in one line: what a buyer should know before choosing. */
export function Availability({ product }: { product: StoreProduct }) {
  const { enrollment, seatsLeft, quantityAvailable } = product;
  const clock = useReaderClock();
  const blocker = saleBlocker(product);
  if (blocker) return <p className="seats seats-blocked">{blockedLabel(product, blocker, clock)}</p>;
  const notes: string[] = [];
  if (seatsLeft !== null)
    notes.push(
      seatsLeft < quantityAvailable
        ? `${seatsLeft} of ${quantityAvailable} seats left`
        : `Limited to ${quantityAvailable} seats`,
    );
  if (enrollment.closesAt) notes.push(`Enrollment closes ${formatDate(enrollment.closesAt, clock)}`);
  if (notes.length === 0) return null;
  return <p className="seats">{notes.join(' · ')}</p>;
}
