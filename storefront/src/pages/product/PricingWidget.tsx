import { useEffect, useRef, useState } from 'react';
import type { PlanTerms } from '../../api/payment-plans';
import { useSearchParams } from 'wouter';
import { saleBlocker, type StoreProduct } from '../../api/catalog';
import { getBilling, type CheckoutRequest, type PurchaseChoice, type QuoteAnswer } from '../../api/commerce';
import { formatDateTime } from '../../format';
import { formatMoney } from '../../../../api/src/shared/money';
import { useSession } from '../../session';
import {
  BillingFields,
  NO_BILLING,
  normalizedPostalCode,
  normalizedVatId,
  wellFormedPostalCode,
  type BillingDraft,
} from './BillingFields';
import { BuyForm } from './BuyForm';
import { useCanceledCheckout } from './buyDraft';
import { CouponField } from './CouponField';
import { PriceBreakdown } from './PriceBreakdown';
import { formatPercent } from './pricingText';
import { useReaderZoneText } from './readerZoneText';
import { RegionalPriceOption } from './RegionalPriceOption';
import { MAX_SEATS_PER_PURCHASE, parseSeats, TeamSeatsField } from './TeamSeatsField';
import { useQuote } from './useQuote';
import { RetryAlert } from '../../LoadStatus';
import { WaitlistPanel } from './Waitlist';

/**
 * What the widget sells: `buy` lets the buyer put it together (regional price, team seats); an owner's box
 * (OwnerBuyBox) asks for one thing: `unlock` a regional purchase at the full price less what was paid (no regional
 * price on top), seats for a `team`, or one seat as a `gift`.
 */
export type BuyMode = 'buy' | 'unlock' | 'team' | 'gift';

interface Props {
  product: StoreProduct;
  /** The catalog, to name the course an upgrade credit comes from. */
  products: StoreProduct[];
  mode?: BuyMode;
  /** Told the coupon and regional price the buyer chose, so the payment plan beside it is priced alike. */
  onTerms?: (terms: PlanTerms) => void;
}

/**
 * The product page's buy side. A course that can be bought: its price, put together by the buyer, and Buy. One that
 * cannot (sold out, enrollment closed or not open yet, not on sale yet): its state and a waitlist instead, and no
 * price, sale, coupon or seats (nothing is quoted for it).
 */
export function PricingWidget({ product, products, mode = 'buy', onTerms }: Props) {
  const blocker = saleBlocker(product);
  if (blocker) return <WaitlistPanel product={product} blocker={blocker} />;
  return <OnSalePricing product={product} products={products} mode={mode} onTerms={onTerms} />;
}

/**
 * Prices the purchase the buyer is putting together (coupon, regional price, team seats; upgrade credit and seats
 * already bought come from the session) and re-quotes on every change, then starts the checkout.
 */
function OnSalePricing({ product, products, mode, onTerms }: Props & { mode: BuyMode }) {
  const [params, setParams] = useSearchParams();
  const [coupon, setCoupon] = useState<string | null>(() => params.get('code')?.trim().slice(0, 64) || null);
  const [ppp, setPpp] = useState(false);
  useEffect(() => onTerms?.({ coupon, ppp }), [onTerms, coupon, ppp]);
  const [forTeamChosen, setForTeam] = useState(mode === 'team');
  // An owner's box asks for one thing: seats for a team (always), one seat as a gift, or the unlock (never seats).
  const forTeam = mode === 'buy' ? forTeamChosen : mode === 'team';
  const gift = mode === 'gift';
  const maxSeats =
    product.seatsLeft !== null
      ? Math.max(1, Math.min(MAX_SEATS_PER_PURCHASE, product.seatsLeft))
      : MAX_SEATS_PER_PURCHASE;
  const [seatsText, setSeatsText] = useState(() => String(Math.max(1, Math.min(5, maxSeats))));
  const seatsRef = useRef<HTMLInputElement>(null);
  // An empty field is not an error while the buyer is still typing; it is once they leave it or press Buy.
  const [seatsLeft, setSeatsLeft] = useState(false);
  // Back from the payment page's Cancel: the choices as the buyer left them.
  const back = useCanceledCheckout(product.id);
  const billing = useBillingDraft();
  const regionRef = useRef<HTMLSelectElement>(null);
  const postalCodeRef = useRef<HTMLInputElement>(null);
  const vatIdRef = useRef<HTMLInputElement>(null);
  const [vatIdLeft, setVatIdLeft] = useState(false);
  const [showProblems, setShowProblems] = useState(false);
  useEffect(() => {
    const { draft } = back;
    if (!draft) return;
    setCoupon(draft.coupon);
    setPpp(draft.ppp);
    setForTeam(draft.forTeam);
    if (draft.forTeam) setSeatsText(String(Math.min(draft.quantity, maxSeats)));
    if (draft.billing)
      billing.change({ ...draft.billing, business: Boolean(draft.billing.company || draft.billing.vatId) });
  }, [back.draft]); // maxSeats is read once, as the seats field's first value is

  const parsed = parseSeats(seatsText, maxSeats);
  const place = billingChoice(billing.draft);
  const choice: PurchaseChoice | null = gift
    ? { quantity: 1, team: true, coupon, ppp: false, billing: place }
    : forTeam
      ? parsed.seats === null
        ? null
        : { quantity: parsed.seats, team: true, coupon, ppp: false, billing: place }
      : { quantity: 1, team: false, coupon, ppp: mode === 'buy' && ppp, billing: place };
  const { answer, pending, error, retry } = useQuote(product.id, choice);

  function applyCoupon(code: string | null) {
    setCoupon(code);
    // The address keeps the code, so a reload or a shared link prices the same way. Only the query changes, so the
    // page keeps its scroll position (see storefrontNav).
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (code) next.set('code', code);
        else next.delete('code');
        return next;
      },
      { replace: true },
    );
  }

  if (!answer) {
    return (
      <div className="pricing-widget">
        {error ? (
          <RetryAlert text={`We could not load the price: ${error.message}`} retry={retry} />
        ) : (
          <p role="status" className="loading price-placeholder">
            Loading the price…
          </p>
        )}
      </div>
    );
  }

  // Paying needs the state where it decides the tax, and a VAT ID that fits the country (or none).
  // (Judged on what the buyer has typed since, too: an answer still on its way must not hold back a fixed form.)
  const billingProblem =
    answer.billing.regionRequired && !billing.draft.region
      ? regionRef
      : postalCodeProblem(answer, billing.draft)
        ? postalCodeRef
        : answer.billing.vatIdProblem && place?.vatId === answer.billing.vatId
          ? vatIdRef
          : null;
  const request = billingProblem
    ? null
    : checkoutRequest(product.id, choice, answer, forTeam || gift, gift, billing.draft);
  return (
    <div className="pricing-widget">
      <SaleNote sale={answer.sale} />
      <PriceBreakdown
        answer={answer}
        stale={pending || error !== null || choice === null}
        pending={pending}
        creditLabel={creditLabel(answer, product, products)}
      />
      {error && <RetryAlert text={`We could not update the price: ${error.message}`} retry={retry} />}
      {mode === 'buy' && <OwnershipNote answer={answer} product={product} products={products} forTeam={forTeam} />}
      {mode === 'buy' && <RegionalPriceOption answer={answer} forTeam={forTeam} checked={ppp} onChange={setPpp} />}
      {mode === 'gift' && (
        <p className="hint">
          One seat for one person: after paying you get a claim link to send them. They sign in with their own email
          address and the course is theirs.
        </p>
      )}
      {mode === 'unlock' && !answer.upgrade && (
        <p className="notice notice-info">There is nothing to unlock: you have full access already.</p>
      )}
      {(mode === 'buy' || mode === 'team') && (
        <TeamSeatsField
          fixed={mode === 'team'}
          forTeam={forTeam}
          onForTeamChange={setForTeam}
          seatsText={seatsText}
          onSeatsTextChange={setSeatsText}
          seats={parsed.seats}
          onSeatsBlur={() => setSeatsLeft(true)}
          seatsError={forTeam && (seatsText.trim() || seatsLeft) ? parsed.error : null}
          maxSeats={maxSeats}
          answer={answer}
          seatsRef={seatsRef}
        />
      )}
      {/* Remounted with a form brought back from the payment page once its code is restored (the price may be in the
          server's HTML, so the field can mount before the restore runs), so the field shows the restored code. */}
      <CouponField
        key={back.draft ? `restored:${coupon ?? ''}` : 'new'}
        applied={coupon}
        answer={answer}
        onApply={applyCoupon}
      />
      <BillingFields
        draft={billing.draft}
        onChange={billing.change}
        answer={answer}
        showProblems={showProblems}
        regionRef={regionRef}
        postalCodeRef={postalCodeRef}
        vatIdRef={vatIdRef}
        vatIdLeft={vatIdLeft}
        onVatIdBlur={() => setVatIdLeft(true)}
      />
      <BuyForm
        request={request}
        onInvalid={() => {
          if (billingProblem) {
            setShowProblems(true);
            if (billingProblem === vatIdRef) billing.change({ business: true });
            billingProblem.current?.focus();
            return;
          }
          setSeatsLeft(true);
          seatsRef.current?.focus();
        }}
        forTeam={forTeam}
        seats={forTeam ? parsed.seats : answer.team ? 1 : null}
        free={answer.quote.free}
        total={answer.quote.free ? null : formatMoney(answer.quote.total, answer.currency)}
        label={buyLabel(mode, answer)}
        canceled={back.canceled}
        draftEmail={back.draft?.email ?? null}
      />
    </div>
  );
}

/** The checkout for the current choice; the coupon only when the quote did not reject it, so Buy charges what is shown. */
function checkoutRequest(
  productId: string,
  choice: PurchaseChoice | null,
  answer: QuoteAnswer,
  forTeam: boolean,
  gift: boolean,
  draft: BillingDraft,
): Omit<CheckoutRequest, 'email'> | null {
  if (!choice) return null;
  const given = (value: string) => value.trim() || undefined;
  const rejected =
    choice.coupon && answer.coupon?.code.toLowerCase() === choice.coupon.toLowerCase() && answer.coupon.problem;
  const upgradeFrom = forTeam ? undefined : answer.upgrade?.fromPurchaseId;
  return {
    productId,
    quantity: choice.quantity,
    team: choice.team,
    ppp: choice.ppp,
    ...(choice.coupon && !rejected ? { coupon: choice.coupon } : {}),
    ...(upgradeFrom ? { upgradeFrom } : {}),
    ...(gift ? { gift: true } : {}),
    // The place the quote was taxed for, and a business's details for its invoice.
    billing: {
      country: draft.country ?? answer.billing.country ?? undefined,
      // None chosen: the server takes the detected one, as the quote did.
      region: draft.region ?? undefined,
      postalCode: given(draft.postalCode),
      ...(draft.business && {
        company: given(draft.company),
        address: given(draft.address),
        vatId: given(draft.vatId),
      }),
    },
  };
}

/**
 * Whether paying needs the ZIP or postal code first: none typed, or not written as the country writes them, where the
 * tax needs it; or the one the quote was asked with, which the tax could not place (typing another clears it).
 */
function postalCodeProblem(answer: QuoteAnswer, draft: BillingDraft): boolean {
  const country = draft.country ?? answer.billing.country;
  const typed = normalizedPostalCode(draft.postalCode);
  if (typed && !wellFormedPostalCode(country, typed)) return true;
  if (!answer.billing.postalCodeRequired) return false;
  return !typed || typed === answer.billing.postalCode;
}

/** What of the billing details the tax asks about: country, region, ZIP or postal code, and a business's VAT ID. */
function billingChoice(draft: BillingDraft): PurchaseChoice['billing'] {
  const vatId = draft.business ? normalizedVatId(draft.vatId) : '';
  const postalCode = normalizedPostalCode(draft.postalCode);
  return {
    country: draft.country,
    region: draft.region,
    postalCode: postalCode || null,
    vatId: /^[A-Z0-9+*]{1,20}$/.test(vatId) ? vatId : null,
  };
}

/**
 * The billing details being typed, starting from a signed-in buyer's remembered ones (unless they have changed
 * something already).
 */
function useBillingDraft(): { draft: BillingDraft; change: (patch: Partial<BillingDraft>) => void } {
  const { state } = useSession();
  const [draft, setDraft] = useState<BillingDraft>(NO_BILLING);
  const touched = useRef(false);
  const signedIn = state.status === 'signed-in';
  useEffect(() => {
    if (!signedIn) return;
    let live = true;
    getBilling().then(
      (remembered) => {
        if (!live || touched.current || !remembered.country) return;
        setDraft({
          country: remembered.country,
          region: remembered.region,
          postalCode: remembered.postalCode,
          company: remembered.company,
          address: remembered.address,
          vatId: remembered.vatId,
          business: Boolean(remembered.company || remembered.vatId),
        });
      },
      () => undefined, // nothing remembered to fill in: the buyer types it
    );
    return () => {
      live = false;
    };
  }, [signedIn]);
  const change = (patch: Partial<BillingDraft>) => {
    // Opening or closing the disclosure is not a change of details.
    if (Object.keys(patch).some((key) => key !== 'business')) touched.current = true;
    setDraft((current) => ({ ...current, ...patch }));
  };
  return { draft, change };
}

/** The owner's buttons say what they buy; the ordinary widget's say how many seats (BuyForm's own labels). */
function buyLabel(mode: BuyMode, answer: QuoteAnswer): string | undefined {
  if (mode === 'gift') return answer.quote.free ? 'Give it free' : 'Buy as a gift';
  if (mode === 'unlock' && answer.upgrade)
    return `Unlock full access for ${formatMoney(answer.quote.total, answer.currency)}`;
  return undefined;
}

function creditLabel(answer: QuoteAnswer, product: StoreProduct, products: StoreProduct[]): string {
  const from = answer.upgrade?.fromProductId;
  if (from === product.id) return 'Credit for your regional-price purchase';
  const name = products.find((p) => p.id === from)?.name;
  return name ? `Credit for ${name} you own` : 'Credit for a course you own';
}

function SaleNote({ sale }: { sale: QuoteAnswer['sale'] }) {
  if (!sale) return null;
  return (
    <p className="sale-note">
      <strong>Sale:</strong> {formatPercent(sale.percent)} off{' '}
      {sale.expires ? <SaleEnd expires={sale.expires} /> : 'until further notice'}
    </p>
  );
}

function SaleEnd({ expires }: { expires: string }) {
  const { text } = useReaderZoneText(expires, formatDateTime);
  return (
    <>
      until <time dateTime={expires}>{text}</time>
    </>
  );
}

/** What owning a related course means for this purchase: an upgrade credit, or a seat to give away. */
function OwnershipNote({
  answer,
  product,
  products,
  forTeam,
}: {
  answer: QuoteAnswer;
  product: StoreProduct;
  products: StoreProduct[];
  forTeam: boolean;
}) {
  if (forTeam) return null;
  if (answer.upgrade) {
    if (answer.upgrade.fromProductId === product.id) {
      return (
        <p className="notice notice-info">
          You own this course at a regional price. Buying it at the full price unlocks it everywhere, and what you paid
          comes off.
        </p>
      );
    }
    const owned = products.find((p) => p.id === answer.upgrade?.fromProductId)?.name ?? 'an earlier course';
    return <p className="notice notice-info">You own {owned}, so what you paid for it comes off the price.</p>;
  }
  // Owned, but paid in another currency: no credit, and why.
  if (answer.upgradeRefused) return <p className="notice notice-info">{answer.upgradeRefused.message}</p>;
  if (answer.team) {
    return (
      <p className="notice notice-info">
        You already own this course. Buying it again gets you a seat to give to someone else.
      </p>
    );
  }
  return null;
}
