import { useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { isApiError } from '../../api/client';
import { takeSeat } from '../../api/subscriptions';
import { ActionButton } from '../../ActionFeedback';
import { RequireSignIn } from '../../RequireSignIn';
import type { StoreUser } from '../../api/identity';
import { useDocumentTitle } from '../../useDocumentTitle';
import { useFocusOnChange } from '../../useFocusOnChange';

type Refusal = 'full' | 'ended' | 'invalid' | 'own' | 'error';

const REFUSAL: Record<Refusal, { heading: string; text: string }> = {
  full: {
    heading: 'Every seat is taken',
    text: 'All the seats of this team membership are taken. Ask the person who sent you the link to add a seat, then open the link again.',
  },
  ended: {
    heading: 'This membership has ended',
    text: 'The team membership behind this link is no longer active, so its seats cannot be taken. Ask the person who sent you the link.',
  },
  invalid: {
    heading: 'This invite link is not valid',
    text: 'Check that you copied the whole link, or ask the person who sent it for the current one.',
  },
  own: {
    heading: 'This membership is yours',
    text: 'You subscribed to this membership yourself, so your seat is already yours.',
  },
  error: { heading: 'Take your seat', text: '' },
};

/**
 * /membership-seats/:code: the invite link a team membership's subscriber shares (docs/domain.md §22). Visitors sign
 * in first and come back; "Take this seat" then opens the membership's courses, or says why it cannot.
 */
export function TakeSeatPage() {
  useDocumentTitle('Take your seat');
  return <RequireSignIn>{(user) => <TakeSeat user={user} />}</RequireSignIn>;
}

function TakeSeat({ user }: { user: StoreUser }) {
  const { code = '' } = useParams();
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<{ kind: Refusal; message: string } | null>(null);
  const headingRef = useFocusOnChange<HTMLHeadingElement>(refusal?.kind ?? 'offer');

  async function handleTake() {
    setBusy(true);
    setRefusal(null);
    try {
      await takeSeat(code);
      navigate('/learning');
    } catch (caught) {
      setBusy(false);
      const kind: Refusal = isApiError(caught, 'coupon-used-up')
        ? 'full'
        : isApiError(caught, 'coupon-inactive')
          ? 'ended'
          : isApiError(caught, 'coupon-not-found', 'validation-failed', 'not-found')
            ? 'invalid'
            : isApiError(caught, 'already-subscribed')
              ? 'own'
              : 'error';
      setRefusal({ kind, message: caught instanceof Error ? caught.message : 'Please try again.' });
    }
  }

  const shown = refusal && refusal.kind !== 'error' ? REFUSAL[refusal.kind] : null;
  return (
    <section className="narrow take-seat">
      <h1 ref={headingRef} tabIndex={-1}>
        {shown ? shown.heading : 'Take your seat'}
      </h1>
      {shown ? (
        <div role="alert" className={`notice ${refusal?.kind === 'own' ? 'notice-info' : 'notice-error'}`}>
          <p>{shown.text}</p>
          <p>
            <Link to="/learning">My learning</Link>
          </p>
        </div>
      ) : (
        <>
          <p>
            You were invited to a seat of a team membership: its courses open for you, at no cost to you, for as long as
            the membership lasts.
          </p>
          <p>
            The seat goes to your account, <strong>{user.email}</strong>. Not you? Sign out at the top of the page and
            sign in with your own email address.
          </p>
          <ActionButton busy={busy} busyText="Taking your seat…" className="button-buy" onClick={handleTake}>
            Take this seat
          </ActionButton>
          {refusal && (
            <p role="alert" className="notice notice-error">
              We could not give you the seat: {refusal.message}
            </p>
          )}
        </>
      )}
    </section>
  );
}
