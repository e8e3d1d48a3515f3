/**
 * Tax at checkout (docs/domain.md §18): what a calculator is asked and what it answers. Amounts are integers in the
 * currency's minor unit, rates in basis points (1900 = 19 %).
 */

/** Where the buyer is, for tax: their billing country, a region where it matters (US state, Canadian province), and a
 * business's VAT ID. */
export interface BuyerTaxPlace {
  country: string;
  region: string | null;
  vatId: string | null;
  /** The billing ZIP or postal code, where given: Stripe Tax places a US buyer by it (a state is not enough). */
  postalCode?: string | null;
}

/** One sale's tax question: the amount after every discount, in the price's own terms (tax inside it or not). */
export interface TaxQuestion {
  currency: string;
  amount: number;
  inclusive: boolean;
  buyer: BuyerTaxPlace;
  /** Our checkout or product, kept by a provider's calculation as its reference. */
  reference?: string;
}

/**
 * The tax on one sale, or null where none applies (the school is not registered where the buyer is, or has set up no
 * tax at all). A reverse-charged sale answers rate 0, amount 0 and `reverseCharge`: the business buyer accounts for it.
 */
export interface TaxAnswer {
  country: string;
  region: string | null;
  /** Basis points. */
  rate: number;
  amount: number;
  /** The price included the tax (charged = amount asked), or the tax comes on top (charged = amount asked + tax). */
  inclusive: boolean;
  reverseCharge: boolean;
  /** The tax's name on the invoice: VAT, GST, HST, Sales tax. */
  name: string;
  /** What the tax is on: the charged total less the tax. */
  taxable: number;
  /** Who computed it: the built-in rate table, or Stripe Tax (with its calculation's id). */
  source: 'built-in' | 'stripe';
  calculationId?: string;
}

export interface SellerRegistrations {
  /** Where the school is established; null: it has set up no tax, and charges none. */
  country: string | null;
  /** Registered for the EU One-Stop Shop (the Union scheme when established in the EU, the non-Union one if not). */
  euOss: boolean;
  /** Further registrations: a whole country (region null) or one region of it (a US state). */
  registrations: readonly { country: string; region: string | null }[];
}

/** The school's tax setup as the engine reads it: its registrations, rates, and which currencies' prices include tax. */
export interface TaxSetup {
  seller: SellerRegistrations;
  /** The school's own tax number, for its invoices. */
  taxId: string;
  inclusiveCurrencies: readonly string[];
  rates: readonly { country: string; region: string | null; rateBp: number; name: string }[];
}

/** Computes a sale's tax; the built-in engine (rate table) and Stripe Tax implement it. */
export interface TaxCalculator {
  /**
   * `beforeAsking` runs before a calculation that costs a remote call (Stripe Tax's, not one its cache answers): the
   * public quote counts those per client address, and a refusal ends the calculation.
   */
  calculate(
    question: TaxQuestion,
    options?: {
      beforeAsking?: () => Promise<void>;
      /** The school's tax setup as the caller read it for this question: not read again. */
      setup?: TaxSetup;
    },
  ): Promise<TaxAnswer | null>;
}

/** What a charge finally costs: the amount asked plus any tax on top. */
export function chargedTotal(amount: number, tax: Pick<TaxAnswer, 'amount' | 'inclusive'> | null): number {
  return tax && !tax.inclusive ? amount + tax.amount : amount;
}
