/*
 * Google's rules for course rich results, written down to check pages against (the outside standard, not our own
 * markup's shape):
 *
 * - Course info (https://developers.google.com/search/docs/appearance/structured-data/course-info): a `Course`
 *   requires `name`, `description`, `provider` (an Organization with its `name`), `offers` (each with `category`:
 *   Free, Partially Free, Subscription or Paid; and, as Google shows them, its `price` and `priceCurrency`) and
 *   `hasCourseInstance`; each `CourseInstance` requires `courseMode` (Online, Onsite, Blended, or a URL) and either
 *   `courseSchedule` (a Schedule with `repeatFrequency` Daily/Weekly/Monthly/Yearly and `repeatCount`) or
 *   `courseWorkload` (an ISO 8601 duration, "PT22H"). Recommended: `image`, `inLanguage`, `syllabusSections` (each
 *   a Syllabus with a `name`), and the instance's `instructor` (Persons with a `name`).
 * - Course list (https://developers.google.com/search/docs/appearance/structured-data/course): a summary page's
 *   `ItemList` whose `itemListElement` are `ListItem`s, each with `position` (1, 2, 3 … in order) and `url` (a course
 *   page of the same site).
 *
 * `errors` are what makes a page ineligible; `missingRecommended` what Google suggests adding.
 */

export interface Verdict {
  errors: string[];
  missingRecommended: string[];
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const text = (v: unknown) => typeof v === 'string' && v.trim().length > 0;
const typeIs = (v: unknown, type: string): v is Json => isObject(v) && asList(v['@type']).includes(type);

/** ISO 8601 durations as Google's examples write them: P…T…, at least one part. */
const ISO_DURATION = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/;
const OFFER_CATEGORIES = ['Free', 'Partially Free', 'Subscription', 'Paid'];
const COURSE_MODES = ['online', 'onsite', 'blended'];
const FREQUENCIES = ['Daily', 'Weekly', 'Monthly', 'Yearly'];

function absoluteUrl(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    return /^https?:$/.test(new URL(v).protocol);
  } catch {
    return false;
  }
}

/** Course info: one Course. */
export function checkCourse(course: unknown): Verdict {
  const errors: string[] = [];
  const missingRecommended: string[] = [];
  if (!typeIs(course, 'Course')) return { errors: ['@type must be Course'], missingRecommended };
  if (!text(course.name)) errors.push('name is required');
  if (!text(course.description)) errors.push('description is required');

  const provider = course.provider;
  if (!isObject(provider)) errors.push('provider is required');
  else if (!text(provider.name)) errors.push('provider.name is required');

  const offers = asList(course.offers);
  if (offers.length === 0) errors.push('offers is required');
  offers.forEach((offer, i) => {
    const at = `offers[${i}]`;
    if (!typeIs(offer, 'Offer')) return void errors.push(`${at} must be an Offer`);
    if (!OFFER_CATEGORIES.includes(offer.category as string)) {
      errors.push(`${at}.category must be one of ${OFFER_CATEGORIES.join(', ')}`);
    }
    const price = Number(offer.price);
    if (offer.price === undefined || offer.price === '' || !Number.isFinite(price) || price < 0) {
      errors.push(`${at}.price must be a number`);
    }
    if (typeof offer.priceCurrency !== 'string' || !/^[A-Z]{3}$/.test(offer.priceCurrency)) {
      errors.push(`${at}.priceCurrency must be an ISO 4217 code`);
    }
    if (offer.category === 'Free' && price > 0) errors.push(`${at}: a Free offer costs nothing`);
    if (offer.category === 'Paid' && price === 0) errors.push(`${at}: a Paid offer has a price`);
  });

  const instances = asList(course.hasCourseInstance);
  if (instances.length === 0) errors.push('hasCourseInstance is required');
  instances.forEach((instance, i) => {
    const at = `hasCourseInstance[${i}]`;
    if (!typeIs(instance, 'CourseInstance')) return void errors.push(`${at} must be a CourseInstance`);
    const modes = asList(instance.courseMode);
    if (modes.length === 0) errors.push(`${at}.courseMode is required`);
    for (const mode of modes) {
      if (!(typeof mode === 'string' && (COURSE_MODES.includes(mode.toLowerCase()) || absoluteUrl(mode)))) {
        errors.push(`${at}.courseMode must be Online, Onsite, Blended or a URL`);
      }
    }
    const { courseSchedule: schedule, courseWorkload: workload } = instance;
    if (schedule === undefined && workload === undefined) {
      errors.push(`${at}: courseSchedule or courseWorkload is required`);
    }
    if (workload !== undefined && !(typeof workload === 'string' && ISO_DURATION.test(workload))) {
      errors.push(`${at}.courseWorkload must be an ISO 8601 duration`);
    }
    if (schedule !== undefined) {
      if (!typeIs(schedule, 'Schedule')) errors.push(`${at}.courseSchedule must be a Schedule`);
      else {
        if (!FREQUENCIES.includes(schedule.repeatFrequency as string)) {
          errors.push(`${at}.courseSchedule.repeatFrequency must be ${FREQUENCIES.join(', ')}`);
        }
        if (!Number.isInteger(schedule.repeatCount)) errors.push(`${at}.courseSchedule.repeatCount is required`);
      }
    }
    const instructors = asList(instance.instructor);
    if (instructors.length === 0) missingRecommended.push(`${at}.instructor`);
    instructors.forEach((person, j) => {
      if (!typeIs(person, 'Person') || !text(person.name)) {
        errors.push(`${at}.instructor[${j}] must be a Person with a name`);
      }
    });
  });

  if (course.image === undefined) missingRecommended.push('image');
  else if (!asList(course.image).every(absoluteUrl)) errors.push('image must be an absolute URL');
  if (!text(course.inLanguage)) missingRecommended.push('inLanguage');
  const sections = asList(course.syllabusSections);
  if (sections.length === 0) missingRecommended.push('syllabusSections');
  sections.forEach((section, i) => {
    if (!typeIs(section, 'Syllabus') || !text(section.name)) {
      errors.push(`syllabusSections[${i}] must be a Syllabus with a name`);
    }
    if (isObject(section) && section.timeRequired !== undefined && !ISO_DURATION.test(String(section.timeRequired))) {
      errors.push(`syllabusSections[${i}].timeRequired must be an ISO 8601 duration`);
    }
  });
  return { errors, missingRecommended };
}

/** Course list: a summary page's ItemList of course pages on `origin`. */
export function checkCourseList(list: unknown, origin: string): Verdict & { urls: string[] } {
  const errors: string[] = [];
  if (!typeIs(list, 'ItemList')) return { errors: ['@type must be ItemList'], missingRecommended: [], urls: [] };
  const items = asList(list.itemListElement);
  if (items.length === 0) errors.push('itemListElement is required');
  const urls: string[] = [];
  items.forEach((item, i) => {
    const at = `itemListElement[${i}]`;
    if (!typeIs(item, 'ListItem')) return void errors.push(`${at} must be a ListItem`);
    if (item.position !== i + 1) errors.push(`${at}.position must be ${i + 1}`);
    if (!absoluteUrl(item.url)) return void errors.push(`${at}.url must be an absolute URL`);
    const url = item.url as string;
    if (new URL(url).origin !== origin) errors.push(`${at}.url must be on ${origin}`);
    urls.push(url);
  });
  if (new Set(urls).size !== urls.length) errors.push('itemListElement lists a URL twice');
  return { errors, missingRecommended: [], urls };
}

/** The JSON-LD blocks of an HTML page, parsed. */
export function jsonLdOf(html: string): Json[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]!) as Json,
  );
}
