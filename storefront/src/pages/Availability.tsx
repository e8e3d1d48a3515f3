import { saleBlocker, type StoreProduct } from '../api/catalog';
import { formatDate, formatDateTime } from '../format';

/** Seats left and the enrollment window in one line: what a buyer should know before choosing. */
export function Availability({ product }: { product: StoreProduct }) {
  const { enrollment, seatsLeft, quantityAvailable } = product;
  const notes: string[] = [];
  switch (saleBlocker(product)) {
    case 'not-open':
      notes.push(`Enrollment opens ${formatDateTime(enrollment.opensAt!)}`);
      break;
    case 'closed':
      notes.push('Enrollment has closed');
      break;
    case 'sold-out':
      notes.push('Sold out');
      break;
    default:
      if (seatsLeft !== null)
        notes.push(
          seatsLeft < quantityAvailable
            ? `${seatsLeft} of ${quantityAvailable} seats left`
            : `Limited to ${quantityAvailable} seats`,
        );
      if (enrollment.closesAt) notes.push(`Enrollment closes ${formatDate(enrollment.closesAt)}`);
  }
  if (notes.length === 0) return null;
  return <p className="seats">{notes.join(' · ')}</p>;
}

/** Why the Buy button is not there, and what the buyer can do instead. */
export function blockerMessage(product: StoreProduct): string | null {
  switch (saleBlocker(product)) {
    case 'sold-out':
      return 'This course is sold out. Check back later: seats may open up.';
    case 'not-open':
      return `Enrollment opens ${formatDateTime(product.enrollment.opensAt!)}. Come back then to buy.`;
    case 'closed':
      return 'Enrollment for this course has closed.';
    default:
      return null;
  }
}
