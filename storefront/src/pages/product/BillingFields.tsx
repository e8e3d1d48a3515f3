import { startTransition, useEffect, useId, useState, type RefObject } from 'react';
import { FieldAlert } from '../../ActionFeedback';
import type { QuoteAnswer } from '../../api/commerce';
import { billingCountries, regionsOf } from './billingPlaces';
import { countryName } from './pricingText';
import { useServerRendered } from './renderedNow';
import { whenIdle } from '../../whenIdle';

/** The billing details as the buyer types them; the tax follows the country, the region, the ZIP and the VAT ID. */
export interface BillingDraft {
  /** Null: the detected country, until the buyer chooses one. */
  country: string | null;
  region: string | null;
  /** The ZIP or postal code, asked where the region decides the tax (US, Canada): Stripe Tax places a US buyer by it. */
  postalCode: string;
  company: string;
  address: string;
  vatId: string;
  /** "Buying for a business" is open. */
  business: boolean;
}

export const NO_BILLING: BillingDraft = {
  country: null,
  region: null,
  postalCode: '',
  company: '',
  address: '',
  vatId: '',
  business: false,
};

/** A VAT ID as the API reads it: upper case, without the spaces, dots and dashes people type. */
export const normalizedVatId = (value: string) => value.toUpperCase().replace(/[\s.\-_/]/g, '');

/** How the US writes a ZIP code (5 digits, or ZIP+4) and Canada a postal code (A1A 1A1), as the API checks them. */
const POSTAL_CODES: Record<string, RegExp> = { US: /^\d{5}(-\d{4})?$/, CA: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/ };

/** A typed ZIP or postal code as the API reads it: trimmed, upper case, single spaces. */
export const normalizedPostalCode = (value: string) => value.trim().toUpperCase().replace(/\s+/g, ' ');

/** Whether a typed code is written as the country writes them (any code elsewhere). */
export const wellFormedPostalCode = (country: string | null, value: string) =>
  !country || !POSTAL_CODES[country] || POSTAL_CODES[country].test(normalizedPostalCode(value));

interface Props {
  draft: BillingDraft;
  onChange: (patch: Partial<BillingDraft>) => void;
  answer: QuoteAnswer;
  /** Buy was pressed while the state or the VAT ID needs fixing: its message is shown as an error. */
  showProblems: boolean;
  regionRef: RefObject<HTMLSelectElement | null>;
  postalCodeRef: RefObject<HTMLInputElement | null>;
  vatIdRef: RefObject<HTMLInputElement | null>;
  onVatIdBlur: () => void;
  vatIdLeft: boolean;
}

/**
 * Where the buyer is billed: their country (the detected one to start with), their state or province and ZIP or
 * postal code where the tax depends on them (the US, Canada), and, for a business, its name, address and VAT ID for the invoice (a VAT ID of another EU country
 * moves the VAT to the buyer: the reverse charge). Every change re-prices the purchase.
 */
export function BillingFields({
  draft,
  onChange,
  answer,
  showProblems,
  regionRef,
  postalCodeRef,
  vatIdRef,
  onVatIdBlur,
  vatIdLeft,
}: Props) {
  const [postalCodeLeft, setPostalCodeLeft] = useState(false);
  const id = useId();
  // Countries are named by the browser's Intl, which may name (and so sort) them differently from the server's: the
  // page is served and hydrated with the chosen country alone, and the list follows once the page is idle (naming,
  // sorting and adding some 250 options is the buy box's costliest render), or at once when the buyer reaches for it.
  const [listed, setListed] = useState(false);
  useEffect(() => whenIdle(() => startTransition(() => setListed(true))), []);
  const list = () => setListed(true);
  const country = draft.country ?? answer.billing.country ?? answer.detectedCountry;
  // Hydrated with the server's name for the country: no Intl names are made before the page is idle.
  const serverCountry = useServerRendered(() => ({ code: country, name: countryName(country) }));
  const regions = regionsOf(country);
  const regionError = regions && answer.billing.regionRequired && showProblems ? answer.billing.message : null;
  const zip = country === 'US';
  const postalCodeError =
    regions && (showProblems || (postalCodeLeft && draft.postalCode.trim()))
      ? !wellFormedPostalCode(country, draft.postalCode)
        ? zip
          ? 'Enter your ZIP code as 5 digits, such as 98101 (or ZIP+4: 98101-1234).'
          : 'Enter your postal code as A1A 1A1.'
        : answer.billing.postalCodeRequired && !answer.billing.regionRequired
          ? answer.billing.message
          : null
      : null;
  const vatIdError =
    draft.vatId.trim() && answer.billing.vatIdProblem && (vatIdLeft || showProblems) ? answer.billing.message : null;

  return (
    <fieldset className="billing-fields">
      <legend>Billing details</legend>
      <div className="field">
        <label htmlFor={`${id}-country`}>Country</label>
        <select
          id={`${id}-country`}
          value={country}
          onChange={(event) => onChange({ country: event.target.value, region: null, postalCode: '' })}
          onFocus={list}
          onPointerDown={list}
          autoComplete="country"
        >
          {listed ? (
            billingCountries().map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))
          ) : (
            <option value={country} suppressHydrationWarning>
              {serverCountry?.code === country ? serverCountry.name : countryName(country)}
            </option>
          )}
        </select>
      </div>
      {regions && (
        <div className="field">
          <label htmlFor={`${id}-region`}>{country === 'CA' ? 'Province' : 'State'}</label>
          <select
            ref={regionRef}
            id={`${id}-region`}
            value={draft.region ?? answer.billing.region ?? ''}
            onChange={(event) => onChange({ region: event.target.value || null })}
            aria-invalid={regionError ? true : undefined}
            aria-describedby={regionError ? `${id}-region-error` : `${id}-region-hint`}
            autoComplete="address-level1"
          >
            <option value="">Choose…</option>
            {Object.entries(regions).map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
          {regionError ? (
            <FieldAlert id={`${id}-region-error`} error={regionError} />
          ) : (
            <p id={`${id}-region-hint`} className="hint">
              Sales tax depends on where you are.
            </p>
          )}
        </div>
      )}
      {regions && (
        <div className="field">
          <label htmlFor={`${id}-postal-code`}>{zip ? 'ZIP code' : 'Postal code'}</label>
          <input
            ref={postalCodeRef}
            id={`${id}-postal-code`}
            className="postal-code-input"
            value={draft.postalCode}
            maxLength={12}
            spellCheck={false}
            autoCapitalize="characters"
            inputMode={zip ? 'numeric' : undefined}
            autoComplete="postal-code"
            aria-invalid={postalCodeError ? true : undefined}
            aria-describedby={postalCodeError ? `${id}-postal-code-error` : `${id}-postal-code-hint`}
            onChange={(event) => onChange({ postalCode: event.target.value })}
            onBlur={() => setPostalCodeLeft(true)}
          />
          {postalCodeError ? (
            <FieldAlert id={`${id}-postal-code-error`} error={postalCodeError} />
          ) : (
            <p id={`${id}-postal-code-hint`} className="hint">
              {zip ? '5 digits, such as 98101.' : 'Such as K1A 0B1.'}
            </p>
          )}
        </div>
      )}
      <details
        className="business-details"
        open={draft.business}
        onToggle={(event) => onChange({ business: (event.target as HTMLDetailsElement).open })}
      >
        <summary>Buying for a business</summary>
        <div className="stack business-fields">
          <div className="field">
            <label htmlFor={`${id}-company`}>Company</label>
            <input
              id={`${id}-company`}
              value={draft.company}
              maxLength={200}
              autoComplete="organization"
              onChange={(event) => onChange({ company: event.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-address`}>Address</label>
            <textarea
              id={`${id}-address`}
              value={draft.address}
              rows={3}
              maxLength={500}
              autoComplete="street-address"
              onChange={(event) => onChange({ address: event.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-vat`}>VAT ID</label>
            <input
              ref={vatIdRef}
              id={`${id}-vat`}
              className="vat-id-input"
              value={draft.vatId}
              maxLength={30}
              spellCheck={false}
              autoCapitalize="characters"
              aria-invalid={vatIdError ? true : undefined}
              aria-describedby={vatIdError ? `${id}-vat-error` : `${id}-vat-hint`}
              onChange={(event) => onChange({ vatId: event.target.value })}
              onBlur={onVatIdBlur}
            />
            {vatIdError ? (
              <FieldAlert id={`${id}-vat-error`} error={vatIdError} />
            ) : (
              <p id={`${id}-vat-hint`} className="hint">
                A business in another EU country or the UK pays no VAT here: it accounts for it itself.
              </p>
            )}
          </div>
        </div>
      </details>
    </fieldset>
  );
}
