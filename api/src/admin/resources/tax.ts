import { TaxRate, TaxRegistration } from '../../tax/models';
import { derived, instant, text } from '../../http/csv-columns';
import { defineResource } from '../resource';
import { TaxRateCreate, TaxRateUpdate, TaxRegistrationCreate } from '../schemas/tax';

/** Basis points as the percentage people read: 1900 → 19, 1497.5 → 14.975. */
const percentOf = (bp: unknown) => (typeof bp === 'number' ? Number((bp / 100).toFixed(3)) : null);

/**
 * The built-in tax engine's rate table (api/src/tax/engine.ts): one rate per country, or per US state or Canadian
 * province. Finance reads it; administrators change it. Every committed write clears the read caches, so the next
 * quote on this replica uses the new rate.
 */
export const taxRates = defineResource({
  name: 'tax-rates',
  model: TaxRate,
  read: ['finance'],
  write: [],
  filterable: {
    id: 'id',
    country: 'text',
    region: 'text',
    rateBp: 'number',
    name: 'text',
    createdAt: 'date',
    updatedAt: 'date',
  },
  sortable: ['country', 'region', 'rateBp', 'name', 'createdAt', 'updatedAt'],
  searchable: ['country', 'region', 'name'],
  defaultSort: ['country', 'ASC'],
  exactCount: true,
  export: {
    columns: [
      text('Country', 'country'),
      text('Region', 'region'),
      derived('Rate in percent', (r) => percentOf(r.rateBp)),
      text('Tax', 'name'),
      instant('Updated', 'updatedAt'),
      text('Rate id', 'id'),
    ],
  },
  create: TaxRateCreate,
  update: TaxRateUpdate,
  remove: 'hard',
  constraintFields: {
    tax_rates_place_unique: { field: 'country', message: 'already has a rate for this place: edit that one' },
    tax_rates_country_code: { field: 'country', message: 'must be a two-letter country code such as DE' },
    tax_rates_region_code: { field: 'region', message: 'must be a state or province code such as WA' },
    tax_rates_rate_range: { field: 'rateBp', message: 'must be between 0 and 5000 basis points' },
    tax_rates_name_length: { field: 'name', message: 'must be 1 to 30 characters' },
  },
});

/**
 * Where, besides its home country (School settings), the school is registered to collect tax: a country, or one
 * state or province. Finance reads them; administrators add and remove them.
 */
export const taxRegistrations = defineResource({
  name: 'tax-registrations',
  model: TaxRegistration,
  read: ['finance'],
  write: [],
  filterable: { id: 'id', country: 'text', region: 'text', createdAt: 'date' },
  sortable: ['country', 'region', 'createdAt'],
  searchable: [],
  defaultSort: ['country', 'ASC'],
  exactCount: true,
  export: {
    columns: [
      text('Country', 'country'),
      text('Region', 'region'),
      instant('Registered', 'createdAt'),
      text('Registration id', 'id'),
    ],
  },
  create: TaxRegistrationCreate,
  remove: 'hard',
  constraintFields: {
    tax_registrations_place_unique: { field: 'country', message: 'is already registered for this place' },
    tax_registrations_country_code: { field: 'country', message: 'must be a two-letter country code such as DE' },
    tax_registrations_region_code: { field: 'region', message: 'must be a state or province code such as WA' },
  },
});
