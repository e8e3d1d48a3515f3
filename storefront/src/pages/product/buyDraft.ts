import { useEffect, useState } from 'react';
import { useSearchParams } from 'wouter';

/*
 * The buy form as the buyer left it for the payment page, so that Cancel there brings it back as it was. Kept in
 * sessionStorage (this tab, until it closes), not in the cancel URL: the address typed never travels to the payment
 * provider or into server logs. The API's cancel URL (both providers) is the product page with `?canceled=1`.
 */

export interface BuyDraft {
  /** The receipt address a signed-out buyer typed ('' when signed in). */
  email: string;
  forTeam: boolean;
  /** Seats (1 unless for a team). */
  quantity: number;
  coupon: string | null;
  /** The regional price was chosen. */
  ppp: boolean;
  /**
   * The billing details given (country, region, ZIP or postal code, a business's name, address and VAT ID), as the
   * checkout sent them.
   */
  billing: DraftBilling | null;
}

export interface DraftBilling {
  country: string | null;
  region: string | null;
  postalCode: string;
  company: string;
  address: string;
  vatId: string;
}

const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : '');
const code = (value: unknown) => (typeof value === 'string' && /^[A-Z0-9]{1,3}$/.test(value) ? value : null);

function readBilling(value: unknown): DraftBilling | null {
  if (!value || typeof value !== 'object') return null;
  const billing = value as Record<string, unknown>;
  return {
    country: code(billing.country),
    region: code(billing.region),
    postalCode: text(billing.postalCode, 12),
    company: text(billing.company, 200),
    address: text(billing.address, 500),
    vatId: text(billing.vatId, 30),
  };
}

export const CANCELED_PARAM = 'canceled';

const keyOf = (productId: string) => `buy-draft:${productId}`;

/** Remembers the form just before the buyer leaves for the payment page. */
export function saveBuyDraft(productId: string, draft: BuyDraft): void {
  try {
    sessionStorage.setItem(keyOf(productId), JSON.stringify(draft));
  } catch {
    // Storage off or full: Cancel then brings back an empty form, as before.
  }
}

function readBuyDraft(productId: string): BuyDraft | null {
  let value: unknown;
  try {
    value = JSON.parse(sessionStorage.getItem(keyOf(productId)) ?? 'null');
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const draft = value as Partial<BuyDraft>;
  const quantity = Number(draft.quantity);
  return {
    email: typeof draft.email === 'string' ? draft.email.slice(0, 254) : '',
    forTeam: draft.forTeam === true,
    quantity: Number.isInteger(quantity) && quantity >= 1 ? quantity : 1,
    coupon: typeof draft.coupon === 'string' && draft.coupon ? draft.coupon.slice(0, 64) : null,
    ppp: draft.ppp === true,
    billing: readBilling(draft.billing),
  };
}

/**
 * Back from the payment page's Cancel (`?canceled=1`): the form as it was (null when this tab kept none) and that
 * the payment was canceled. Read after the first render, as the server renders the page without either; the
 * parameter is then dropped so that a reload does not say it again.
 */
export function useCanceledCheckout(productId: string): { canceled: boolean; draft: BuyDraft | null } {
  const [params, setParams] = useSearchParams();
  const [back, setBack] = useState<{ canceled: boolean; draft: BuyDraft | null }>({ canceled: false, draft: null });
  const canceled = params.get(CANCELED_PARAM) !== null;
  useEffect(() => {
    if (!canceled) return;
    const draft = readBuyDraft(productId);
    setBack({ canceled: true, draft });
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.delete(CANCELED_PARAM);
        // The coupon stays in the address, as the coupon field keeps it.
        if (draft?.coupon) next.set('code', draft.coupon);
        return next;
      },
      { replace: true },
    );
  }, [canceled, productId]); // setParams is a new function every render
  return back;
}
