import { useId, useState, type FormEvent } from 'react';
import { FieldAlert } from '../../ActionFeedback';
import type { QuoteAnswer } from '../../api/commerce';
import { discountInWords, formatBp, formatPercent, notApplied } from './pricingText';

interface Props {
  /** The code being priced (from the field or from ?code= in the address), or null. */
  applied: string | null;
  /** The latest quote; its coupon part says whether the code works and what it did. */
  answer: QuoteAnswer | null;
  onApply: (code: string | null) => void;
}

/** "Coupon code" + Apply: says why a code does not work, or what it did when a better discount won. */
export function CouponField({ applied, answer, onApply }: Props) {
  const id = useId();
  const [draft, setDraft] = useState(applied ?? '');
  const [missing, setMissing] = useState(false);
  const current =
    applied && answer?.coupon && answer.coupon.code.toLowerCase() === applied.toLowerCase() ? answer : null;
  const feedback = current ? couponFeedback(current) : null;
  const error = missing ? 'Enter a coupon code.' : feedback?.error;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = draft.trim();
    setMissing(!code && !applied);
    onApply(code || null);
  }

  function handleRemove() {
    setDraft('');
    setMissing(false);
    onApply(null);
  }

  return (
    <form className="field coupon-field" onSubmit={handleSubmit} noValidate>
      <label htmlFor={`${id}-code`}>Coupon code</label>
      <div className="inline-controls">
        <input
          id={`${id}-code`}
          name="coupon"
          value={draft}
          onChange={(event) => {
            setDraft(event.target.value);
            setMissing(false);
          }}
          maxLength={64}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : `${id}-note`}
        />
        <button type="submit" className="button-quiet">
          Apply
        </button>
        {applied && (
          <button type="button" className="button-quiet" onClick={handleRemove}>
            Remove coupon
          </button>
        )}
      </div>
      <FieldAlert id={`${id}-error`} error={error} />
      <p id={`${id}-note`} role="status" className="hint status-message">
        {!error && feedback?.note}
      </p>
    </form>
  );
}

/** What an entered code did: a problem (error), applied, or valid but beaten by a better discount. */
function couponFeedback(answer: QuoteAnswer): { error?: string; note?: string } {
  const { coupon, quote, sale } = answer;
  if (!coupon) return {};
  if (coupon.problem) return { error: coupon.message ?? 'This coupon cannot be used.' };
  const code = coupon.code.toUpperCase();
  const discount = quote.discount;
  if (discount?.kind === 'coupon') {
    const replacesSale = sale && notApplied(answer, 'default-coupon', 'entered-coupon-wins');
    return {
      note:
        `Coupon ${code} applied: ${formatBp(discount.bp)} off.` +
        (replacesSale
          ? ` It takes the place of the ${formatPercent(sale.percent)} sale; discounts do not combine.`
          : ''),
    };
  }
  if (notApplied(answer, 'coupon', 'saves-less') && discount) {
    return {
      note: `Coupon ${code} is valid, but ${discountInWords(discount.kind, discount.bp)} saves you more, so we applied the better discount. Discounts do not combine.`,
    };
  }
  if (notApplied(answer, 'coupon', 'minimum-charge')) {
    return { note: `Coupon ${code} is valid, but the price is already at our minimum charge.` };
  }
  return { note: `Coupon ${code} is valid.` };
}
