import type { StoreProduct } from '../api/catalog';
import { plural } from '../../../api/src/shared/words';
import { formatMinutes } from './product/salesText';

/** "Ada Lovelace and Ben Cole", "Ada, Ben and Cy". */
function names(list: string[]): string {
  return list.length <= 1 ? list.join('') : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

/**
 * A card's facts under its name: who teaches it, and how long it is (its lessons' length only when every lesson has
 * one, see shared/course-length.ts; else how many lessons).
 */
export function CardFacts({ product }: { product: StoreProduct }) {
  const { instructorNames, lessonCount, durationMinutes } = product;
  const size = lessonCount > 0 ? plural(lessonCount, 'lesson') : null;
  const length = durationMinutes ? formatMinutes(durationMinutes) : null;
  if (!instructorNames.length && !size) return null;
  return (
    <p className="card-facts">
      {instructorNames.length > 0 && <span className="card-instructors">By {names(instructorNames)}</span>}
      {size && (
        <span className="card-length">
          {size}
          {length && ` · ${length}`}
        </span>
      )}
    </p>
  );
}
