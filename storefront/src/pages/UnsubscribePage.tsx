import { useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import { ActionButton } from '../ActionFeedback';
import { isApiError } from '../api/client';
import { unsubscribeFromReplies } from '../api/emails';
import { failureText } from '../useConfirmation';
import { useDocumentTitle } from '../useDocumentTitle';
import { useFocusOnChange } from '../useFocusOnChange';

type Outcome = 'done' | 'invalid' | 'incomplete';

/**
 * /unsubscribe?token=…: the unsubscribe link of a reply email, signed in or not. Mail scanners open links too, so
 * nothing happens on load: only the button's POST turns the emails off (mail clients' one-click Unsubscribe POSTs
 * the same address themselves).
 */
export function UnsubscribePage() {
  useDocumentTitle('Stop reply emails');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [outcome, setOutcome] = useState<Outcome | null>(token ? null : 'incomplete');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const headingRef = useFocusOnChange<HTMLHeadingElement>(outcome ?? 'ready');

  async function unsubscribe() {
    setBusy(true);
    setError(null);
    try {
      await unsubscribeFromReplies(token);
      setOutcome('done');
    } catch (caught) {
      if (isApiError(caught, 'unsubscribe-link-invalid')) setOutcome('invalid');
      else if (isApiError(caught, 'validation-failed')) setOutcome('incomplete');
      else setError(failureText(caught));
    } finally {
      setBusy(false);
    }
  }

  let heading = 'Stop emails about replies?';
  let body = (
    <>
      <p>
        We email you when someone replies to one of your comments. Stop these emails? You can turn them on again in your
        settings.
      </p>
      <ActionButton type="button" busy={busy} busyText="Turning them off…" onClick={unsubscribe}>
        Stop reply emails
      </ActionButton>
      {error && (
        <p role="alert" className="notice notice-error">
          {error}
        </p>
      )}
    </>
  );
  if (outcome === 'done') {
    heading = 'Reply emails are off';
    body = (
      <p role="status">
        We will not email you about replies to your comments. To turn them on again, open{' '}
        <Link to="/settings">your settings</Link>.
      </p>
    );
  } else if (outcome === 'invalid') {
    heading = 'This link does not work';
    body = (
      <p role="alert">
        Copy the whole link from the email, or turn reply emails off in <Link to="/settings">your settings</Link>.
      </p>
    );
  } else if (outcome === 'incomplete') {
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
