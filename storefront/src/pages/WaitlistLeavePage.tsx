import { useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import { ActionButton } from '../ActionFeedback';
import { productPath } from '../api/catalog';
import { isApiError } from '../api/client';
import { leaveWaitlist, type LeftWaitlist } from '../api/waitlist';
import { failureText } from '../useConfirmation';
import { useDocumentTitle } from '../useDocumentTitle';
import { useFocusOnChange } from '../useFocusOnChange';

type Outcome = { kind: 'done'; answer: LeftWaitlist } | { kind: 'invalid' } | { kind: 'incomplete' };

/**
 * /waitlist/leave?entry=…&token=…: the leave link of a waitlist email. Mail scanners open links too, so nothing
 * happens on load: only the button's POST takes the address off the list.
 */
export function WaitlistLeavePage() {
  useDocumentTitle('Leave the waitlist');
  const [params] = useSearchParams();
  const entry = params.get('entry') ?? '';
  const token = params.get('token') ?? '';
  const [outcome, setOutcome] = useState<Outcome | null>(entry && token ? null : { kind: 'incomplete' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const headingRef = useFocusOnChange<HTMLHeadingElement>(outcome?.kind ?? 'ready');

  async function leave() {
    setBusy(true);
    setError(null);
    try {
      setOutcome({ kind: 'done', answer: await leaveWaitlist(entry, token) });
    } catch (caught) {
      if (isApiError(caught, 'waitlist-link-invalid')) setOutcome({ kind: 'invalid' });
      else if (isApiError(caught, 'validation-failed')) setOutcome({ kind: 'incomplete' });
      else setError(failureText(caught));
    } finally {
      setBusy(false);
    }
  }

  let heading = 'Leave the waitlist?';
  let body = (
    <>
      <p>You will get no more emails about this course opening. You can join the waitlist again from its page.</p>
      <ActionButton type="button" busy={busy} busyText="Leaving the waitlist…" onClick={leave}>
        Leave the waitlist
      </ActionButton>
      {error && (
        <p role="alert" className="notice notice-error">
          {error}
        </p>
      )}
    </>
  );
  if (outcome?.kind === 'done') {
    const { product } = outcome.answer;
    heading = outcome.answer.status === 'left' ? 'You left the waitlist' : 'You are not on this waitlist';
    body = (
      <p role="status">
        {outcome.answer.status === 'left'
          ? `We will not email you about ${product?.name ?? 'this course'} again.`
          : 'You left it already, or it was removed: we will not email you about it.'}{' '}
        {product ? <Link to={productPath(product)}>Go to {product.name}</Link> : <Link to="/">See all courses</Link>}
      </p>
    );
  } else if (outcome?.kind === 'invalid') {
    heading = 'This link is out of date';
    body = <p role="alert">Each waitlist email has its own link: use the one in the latest email about this course.</p>;
  } else if (outcome?.kind === 'incomplete') {
    heading = 'This link is incomplete';
    body = <p role="alert">Part of the link is missing. Copy the whole link from the email.</p>;
  }

  return (
    <section className="narrow">
      <h1 ref={headingRef} tabIndex={-1}>
        {heading}
      </h1>
      {body}
    </section>
  );
}
