import type * as School from '@contract/school/schemas';
import type { Wire } from '@contract/shared/wire';
import { getJson } from './client';

/** GET /api/store/school: the school whose site this is (its name, logo, contact and legal texts). */
export type StoreSchool = Wire<School.School>;

export function getSchool(): Promise<StoreSchool> {
  return getJson<StoreSchool>('/api/store/school');
}

/**
 * The school as every page carries it (storefront/src/school.ts): all but the legal texts, which their pages load, and
 * its tax setup, which only quotes and invoices apply (the API does).
 */
export type SiteSchool = Omit<
  StoreSchool,
  'termsHtml' | 'privacyHtml' | 'taxCountry' | 'taxId' | 'taxEuOss' | 'taxInclusiveCurrencies'
>;
