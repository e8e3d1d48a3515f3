import type { StoreProductPage } from '../../api/catalog';
import { TYPE_LABEL } from '../productTypes';
import { initials } from '../initials';
import { formatMinutes } from './salesText';
import { plural } from '../../../../api/src/shared/words';

/** The top of the sales page: what it is, who teaches it, the facts that sell it, and its picture. */
export function SalesHero({ product }: { product: StoreProductPage }) {
  const { curriculum, instructors } = product;
  const lessons = curriculum.reduce((sum, c) => sum + c.lessonCount, 0);
  // Its length only when every lesson has one (shared/course-length.ts); else the lessons' count stands alone.
  const minutes = product.durationMinutes;
  const free = curriculum.reduce((sum, c) => sum + c.freeLessonCount, 0);
  const facts = [
    curriculum.length > 1 ? plural(curriculum.length, 'course') : null,
    lessons > 0 ? plural(lessons, 'lesson') : null,
    minutes ? formatMinutes(minutes) : null,
    free > 0 ? plural(free, 'free preview') : null,
  ].filter((fact): fact is string => fact !== null);
  return (
    <header className="sales-hero">
      <Cover product={product} />
      <span className="badge">{TYPE_LABEL[product.productType]}</span>
      <h1>{product.name}</h1>
      {product.description && <p className="product-description">{product.description}</p>}
      {instructors.length > 0 && <p className="byline">By {listOfNames(instructors.map((i) => i.name))}</p>}
      {facts.length > 0 && (
        <ul className="hero-facts" aria-label="At a glance">
          {facts.map((fact) => (
            <li key={fact}>{fact}</li>
          ))}
        </ul>
      )}
    </header>
  );
}

/** "Ada", "Ada and Ben", "Ada, Ben and Cy". */
function listOfNames(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

const COVER = { width: 1200, height: 630 };

/** The product's picture when it has one (served resized); otherwise a quiet cover with its initials. */
function Cover({ product }: { product: StoreProductPage }) {
  const { image } = product;
  if (image) {
    return (
      <img
        className="product-cover"
        src={image.src}
        srcSet={image.srcSet || undefined}
        sizes="(min-width: 1024px) 720px, 100vw"
        width={image.width ?? COVER.width}
        height={image.height ?? COVER.height}
        alt={image.alt || product.name}
        fetchPriority="high"
      />
    );
  }
  return (
    <div className="product-cover product-cover-placeholder" aria-hidden="true">
      <span>{initials(product.name)}</span>
    </div>
  );
}
