import type { StoreProduct } from '../api/catalog';
import { formatMinutes, plural } from '../../../api/src/shared/words';

/**
 * A card's facts under its name: who teaches it, and how long it is (its lessons' length only when every lesson has
 * one, see shared/course-length.ts; else how many lessons). Small: the home page's JavaScript has a budget.
 */
export function CardFacts({ product: { instructorNames, lessonCount, durationMinutes } }: { product: StoreProduct }) {
  return (
    <p className="card-facts">
      {instructorNames.length > 0 && <span>By {instructorNames.join(', ')}</span>}
      {lessonCount > 0 && (
        <span>
          {plural(lessonCount, 'lesson')}
          {/* Kept on one line ("2 h 5 min"). */}
          {durationMinutes ? ` · ${formatMinutes(durationMinutes).replaceAll(' ', '\u00a0')}` : null}
        </span>
      )}
    </p>
  );
}
