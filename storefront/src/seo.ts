import { currencyExponent, toMajorUnits } from '../../api/src/shared/currency';
import { productPath, saleBlocker, type StoreProduct } from './api/catalog';
import { coursePath, lessonPath, type CourseView, type LessonView } from './api/learning';
import { SITE_NAME, type Head } from './head';

/*
 * What search engines and link previews read about the public pages: descriptions, canonical paths, and schema.org
 * structured data (https://schema.org/Course, as Google's course info results read it:
 * https://developers.google.com/search/docs/appearance/structured-data/course-info).
 */

/** An absolute URL for a path of this site. */
const absolute = (origin: string, path: string) => new URL(path, origin).href;

/** "PT2H30M" for 150 minutes (ISO 8601, as courseWorkload wants it). */
function isoDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `PT${hours ? `${hours}H` : ''}${rest || !hours ? `${rest}M` : ''}`;
}

/** What a product page knows; the sales page's answer adds the image and the curriculum's length. */
type ProductLike = StoreProduct & {
  image?: { src: string } | null;
  curriculum?: { durationMinutes: number }[];
};

function availability(product: StoreProduct): string {
  switch (saleBlocker(product)) {
    case 'sold-out':
      return 'https://schema.org/SoldOut';
    case 'closed':
      return 'https://schema.org/Discontinued';
    case 'not-open':
      return 'https://schema.org/PreOrder';
    default:
      return product.seatsLeft === null ? 'https://schema.org/InStock' : 'https://schema.org/LimitedAvailability';
  }
}

/** The offer a visitor sees now: the sale's price while one runs (until it ends), else the list price. */
function offer(product: StoreProduct, url: string) {
  const { price, sale } = product;
  if (!price) return null;
  const amount = sale?.unitAmount ?? price.unitAmount;
  return {
    '@type': 'Offer',
    category: amount === 0 ? 'Free' : 'Paid',
    // In major units with the currency's own decimals: "49.00" for usd, "4000" for jpy.
    price: toMajorUnits(amount, price.currency).toFixed(currencyExponent(price.currency)),
    priceCurrency: price.currency.toUpperCase(),
    availability: availability(product),
    url,
    ...(sale?.endsAt ? { priceValidUntil: String(sale.endsAt).slice(0, 10) } : {}),
    ...(product.enrollment.state === 'not-open' && product.enrollment.opensAt
      ? { availabilityStarts: product.enrollment.opensAt }
      : {}),
  };
}

/** A product's page: a Course offered by this site at its price. */
export function productHead(product: ProductLike): Head {
  const path = productPath(product);
  const description = product.description ?? `${product.name}: a course from ${SITE_NAME}.`;
  const minutes = product.curriculum?.reduce((sum, c) => sum + c.durationMinutes, 0) ?? 0;
  return {
    title: product.name,
    description,
    path,
    image: product.image?.src ?? null,
    type: 'product',
    jsonLd: (origin) => {
      const url = absolute(origin, path);
      const offered = offer(product, url);
      return {
        '@context': 'https://schema.org',
        '@type': 'Course',
        '@id': url,
        name: product.name,
        description,
        url,
        provider: { '@type': 'Organization', name: SITE_NAME, sameAs: absolute(origin, '/') },
        ...(product.image ? { image: absolute(origin, product.image.src) } : {}),
        ...(offered ? { offers: [offered] } : {}),
        hasCourseInstance: [
          {
            '@type': 'CourseInstance',
            courseMode: 'Online',
            ...(minutes > 0 ? { courseWorkload: isoDuration(minutes) } : {}),
          },
        ],
      };
    },
  };
}

/** A course's outline: the Course (its price is on the products' pages, which carry the offer). */
export function courseHead(view: CourseView): Head {
  const { course } = view;
  const path = coursePath(course);
  const lessons = view.modules.reduce(
    (sum, m) => sum + m.lessons.length + m.sections.reduce((n, s) => n + s.lessons.length, 0),
    0,
  );
  const description =
    course.description ?? `${course.title}: ${lessons} ${lessons === 1 ? 'lesson' : 'lessons'} from ${SITE_NAME}.`;
  return {
    title: course.title,
    description,
    path,
    jsonLd: (origin) => ({
      '@context': 'https://schema.org',
      '@type': 'Course',
      '@id': absolute(origin, path),
      name: course.title,
      description,
      url: absolute(origin, path),
      provider: { '@type': 'Organization', name: SITE_NAME, sameAs: absolute(origin, '/') },
    }),
  };
}

/** A lesson anyone may read: an article of its course. */
export function lessonHead(view: LessonView): Head {
  const { course, lesson } = view;
  const path = lessonPath(course, lesson);
  return {
    title: `${lesson.title} · ${course.title}`,
    description: `${lesson.free ? 'A free lesson' : 'A lesson'} of ${course.title}, from ${SITE_NAME}.`,
    path,
    type: 'article',
    jsonLd: (origin) => ({
      '@context': 'https://schema.org',
      '@type': 'LearningResource',
      name: lesson.title,
      url: absolute(origin, path),
      isAccessibleForFree: true,
      isPartOf: { '@type': 'Course', name: course.title, url: absolute(origin, coursePath(course)) },
      provider: { '@type': 'Organization', name: SITE_NAME, sameAs: absolute(origin, '/') },
    }),
  };
}
