import { table } from '../db/base-model';

/** A rate of the built-in engine's table: a country's, or a region's (a US state, a Canadian province). */
export class TaxRate extends table('taxRates') {
  declare id: string;
  declare country: string;
  declare region: string | null;
  /** Basis points: 1900 = 19 %. */
  declare rateBp: number;
  declare name: string;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** Where, besides its home country, the school collects tax: a whole country or one region of it. */
export class TaxRegistration extends table('taxRegistrations') {
  declare id: string;
  declare country: string;
  declare region: string | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** The columns a sale's tax is kept in, on a checkout (quoted), a charge (computed) and an invoice (issued). */
export interface TaxColumns {
  taxCountry: string | null;
  taxRegion: string | null;
  taxRateBp: number | null;
  taxName: string | null;
  taxInclusive: boolean | null;
  taxReverseCharge: boolean;
  taxAmount: number;
}
