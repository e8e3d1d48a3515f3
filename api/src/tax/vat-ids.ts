// VAT ID formats are written once in shared/ (the school's own number is checked below the tax domain, and the apps
// may check a number as it is typed); the tax domain's callers read them here.
export { normalizeVatId, vatIdCountry, vatIdProblem } from '../shared/vat-ids';
