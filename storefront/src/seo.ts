import { courseLength, isoDuration } from '../../api/src/shared/course-length';
import { currencyExponent, toMajorUnits } from '../../api/src/shared/currency';
import { productPath, saleBlocker, type StoreProduct, type StoreProductPage } from './api/catalog';
import { coursePath, lessonPath, type CourseView, type LessonView } from './api/learning';
import { lessonsInOrder } from './learning/outlineProgress';
import type { Head } from './head';

/*
 * What search engines and link previews read about the public pages: descriptions, canonical paths, and schema.org
 * structured data as Google's course rich results read it: a Course on a product's and a course's page ("Course
 * info": name, description, provider, offers with their category and price, a CourseInstance with its mode and
 * workload, https://developers.google.com/search/docs/appearance/structured-data/course-info), and the list of
 * courses on the home page ("Course list", in pages/courseList.ts, apart so the home page's JavaScript stays light).
 * tests/support/course-rich-results.ts checks the pages against those rules.
 */

/** An absolute URL for a path of this site. */
const absolute = (origin: string, path: string) => new URL(path, origin).href;

/** Who offers the courses: the school, named as its settings name it. */
const organization = (origin: string, school: string) => ({
  '@type': 'Organization',
  name: school,
  sameAs: absolute(origin, '/'),
});

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

/**
 * How the course is taken: online, at its length when every lesson has one (`courseWorkload`, ISO 8601), taught by
 * its instructors. Without a complete length there is no workload: a partial one would understate the course.
 */
function courseInstance(minutes: number | null, instructors: string[]) {
  return {
    '@type': 'CourseInstance',
    courseMode: 'Online',
    ...(minutes ? { courseWorkload: isoDuration(minutes) } : {}),
    ...(instructors.length ? { instructor: instructors.map((name) => ({ '@type': 'Person', name })) } : {}),
  };
}

/** A product's page: a Course offered by the school at its price. */
export function productHead(product: StoreProductPage, school: string): Head {
  const path = productPath(product);
  const description = product.description ?? `${product.name}: a course from ${school}.`;
  return {
    title: product.name,
    description,
    path,
    image: product.image?.src ?? null,
    type: 'product',
    jsonLd: (origin) => {
      const url = absolute(origin, path);
      const offered = offer(product, url);
      const modules = product.curriculum.flatMap((c) => c.modules);
      return {
        '@context': 'https://schema.org',
        '@type': 'Course',
        '@id': url,
        name: product.name,
        description,
        url,
        provider: organization(origin, school),
        inLanguage: 'en',
        ...(product.image ? { image: absolute(origin, product.image.src) } : {}),
        ...(offered ? { offers: [offered] } : {}),
        hasCourseInstance: [courseInstance(product.durationMinutes, product.instructorNames)],
        ...(modules.length
          ? {
              syllabusSections: modules.map((m) => ({
                '@type': 'Syllabus',
                name: m.title,
                ...(m.durationMinutes ? { timeRequired: isoDuration(m.durationMinutes) } : {}),
              })),
            }
          : {}),
      };
    },
  };
}

/**
 * A course's outline: the Course, offered through the products on sale that grant it (`products`: the catalog, of
 * which those the course names are taken).
 */
export function courseHead(view: CourseView, products: StoreProduct[], school: string): Head {
  const { course } = view;
  const path = coursePath(course);
  const lessons = lessonsInOrder(view);
  const description =
    course.description ??
    `${course.title}: ${lessons.length} ${lessons.length === 1 ? 'lesson' : 'lessons'} from ${school}.`;
  const granting = products.filter((p) => view.products.some((ref) => ref.id === p.id));
  return {
    title: course.title,
    description,
    path,
    jsonLd: (origin) => {
      const offers = granting.flatMap((p) => offer(p, absolute(origin, productPath(p))) ?? []);
      return {
        '@context': 'https://schema.org',
        '@type': 'Course',
        '@id': absolute(origin, path),
        name: course.title,
        description,
        url: absolute(origin, path),
        provider: organization(origin, school),
        inLanguage: 'en',
        ...(offers.length ? { offers } : {}),
        hasCourseInstance: [
          courseInstance(courseLength(lessons.map((l) => l.durationMinutes)), [
            ...new Set(granting.flatMap((p) => p.instructorNames)),
          ]),
        ],
      };
    },
  };
}

/** A lesson anyone may read: an article of its course. */
export function lessonHead(view: LessonView, school: string): Head {
  const { course, lesson } = view;
  const path = lessonPath(course, lesson);
  return {
    title: `${lesson.title} · ${course.title}`,
    description: `${lesson.free ? 'A free lesson' : 'A lesson'} of ${course.title}, from ${school}.`,
    path,
    type: 'article',
    jsonLd: (origin) => ({
      '@context': 'https://schema.org',
      '@type': 'LearningResource',
      name: lesson.title,
      url: absolute(origin, path),
      isAccessibleForFree: view.open,
      isPartOf: { '@type': 'Course', name: course.title, url: absolute(origin, coursePath(course)) },
      provider: organization(origin, school),
    }),
  };
}
