import { Link, useLocation } from 'wouter';
import { formatMoney } from '../../../../api/src/shared/money';
import { plural } from '../../../../api/src/shared/words';
import type { StoreProductPage } from '../../api/catalog';
import { isApiError } from '../../api/client';
import { subscribe } from '../../api/subscriptions';
import { BusyStatus } from '../../ActionFeedback';
import { useHere } from '../../navigation';
import { loginPath } from '../../redirects';
import { useSession } from '../../session';
import { useAction } from '../../useAction';

type Terms = NonNullable<StoreProductPage['membership']>;

/**
 * A membership's buy box (docs/domain.md §22): its price each month or year, any free trial, and Subscribe, which
 * goes to the provider's page to subscribe. A membership is never bought once, so no quote is asked.
 */
export function MembershipBuyBox({ product, terms }: { product: StoreProductPage; terms: Terms }) {
  const { state, refresh } = useSession();
  const [, navigate] = useLocation();
  const here = useHere();
  const action = useAction((caught) =>
    isApiError(caught, 'unauthenticated') ? null : caught instanceof Error ? caught.message : 'Please try again.',
  );
  const { price } = product;
  if (!price) return null;
  const each = formatMoney(price.unitAmount, price.currency);

  async function handleSubscribe() {
    if (action.busy) return;
    if (state.status !== 'signed-in') {
      navigate(loginPath(here));
      return;
    }
    await action.run(async () => {
      try {
        window.location.assign(await subscribe(product.id));
      } catch (caught) {
        // The session ended meanwhile: signing in again comes back here.
        if (isApiError(caught, 'unauthenticated')) {
          refresh();
          navigate(loginPath(here));
        }
        throw caught;
      }
    });
  }

  const signedOut = state.status === 'signed-out';
  return (
    <div className="pricing-widget membership-buy-box">
      <p className="price">
        {each} <span className="price-interval">/ {terms.interval}</span>
      </p>
      <p className="hint">
        {terms.trialDays > 0
          ? `Free for ${plural(terms.trialDays, 'day')}, then ${each} a ${terms.interval}. `
          : `${each} now, then each ${terms.interval}. `}
        Renews until you cancel; after cancelling, your access lasts until the end of the period you paid for.
      </p>
      <div className="actions">
        <button type="button" className="button-buy" onClick={handleSubscribe} aria-disabled={action.busy || undefined}>
          Subscribe
        </button>
        <BusyStatus busy={action.busy} text="Opening the subscription page…" />
      </div>
      {signedOut && <p className="hint">You sign in first, then subscribe.</p>}
      {action.error && (
        <p role="alert" className="notice notice-error">
          {action.error}
          {state.status === 'signed-in' && state.hasSubscriptions && (
            <>
              {' '}
              <Link to="/subscriptions">Your subscriptions</Link>
            </>
          )}
        </p>
      )}
    </div>
  );
}
