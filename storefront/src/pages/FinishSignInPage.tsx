import { useState } from 'react';
import { Link, useLocation, useSearchParams } from 'wouter';
import { isApiError } from '../api/client';
import { consumeSignInLink } from '../api/identity';
import { isOutsideStorefront, safeRedirect } from '../redirects';
import { useSession } from '../session';
import { useFocusOnChange } from '../useFocusOnChange';
import { ActionButton } from '../ActionFeedback';
import { useDocumentTitle } from '../useDocumentTitle';

type LinkProblem = 'incomplete' | 'invalid' | 'expired';

const PROBLEMS: Record<LinkProblem, { heading: string; text: string }> = {
  incomplete: {
    heading: 'This sign-in link is incomplete',
    text: 'Part of the link is missing. Copy the whole link from the email, or ask for a new one.',
  },
  invalid: {
    heading: 'This sign-in link cannot be used',
    text: 'The link is not valid or was already used: each link signs you in once. Ask for a new one.',
  },
  expired: {
    heading: 'This sign-in link has expired',
    // The API's message says how long this link lasted (a sign-in email's, minutes; a receipt's, days).
    text: 'Ask for a new one below: it arrives in a minute and works for 15 minutes.',
  },
};

/**
 * The page the emailed link opens. Mail scanners open links too, so nothing happens on load: only the
 * Continue button's POST uses the token.
 */
export function FinishSignInPage() {
  useDocumentTitle('Finish signing in');
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const token = params.get('token') ?? '';
  const [, navigate] = useLocation();
  const { signedIn } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [problem, setProblem] = useState<LinkProblem | null>(email && token ? null : 'incomplete');
  const [problemDetail, setProblemDetail] = useState<string | null>(null);
  const headingRef = useFocusOnChange<HTMLHeadingElement>(problem ?? 'ready');

  async function handleContinue() {
    setBusy(true);
    setError(null);
    try {
      const result = await consumeSignInLink(email, token);
      const target = safeRedirect(result.redirectTo);
      if (isOutsideStorefront(target)) {
        window.location.assign(target);
        return; // keep the busy state while the console loads
      }
      signedIn(result.user);
      navigate(target, { replace: true });
    } catch (caught) {
      setBusy(false);
      if (isApiError(caught, 'sign-in-link-invalid')) setProblem('invalid');
      else if (isApiError(caught, 'sign-in-link-expired')) {
        setProblemDetail(caught.message);
        setProblem('expired');
      } else if (isApiError(caught, 'validation-failed')) setProblem('incomplete');
      else setError(caught instanceof Error ? caught.message : 'Something went wrong. Please try again.');
    }
  }

  if (problem) {
    return (
      <section className="narrow">
        <h1 ref={headingRef} tabIndex={-1}>
          {PROBLEMS[problem].heading}
        </h1>
        <p role="alert">
          {problemDetail && `${problemDetail} `}
          {PROBLEMS[problem].text}
        </p>
        <p>
          <Link to={email ? `/login?${new URLSearchParams({ email })}` : '/login'}>Get a new sign-in link</Link>
        </p>
      </section>
    );
  }

  return (
    <section className="narrow">
      <h1 ref={headingRef} tabIndex={-1}>
        Finish signing in
      </h1>
      <p>
        You are signing in as <strong>{email}</strong>. Select Continue to finish.
      </p>
      <ActionButton busy={busy} busyText="Signing you in…" onClick={handleContinue}>
        Continue
      </ActionButton>
      {error && (
        <div role="alert" className="notice notice-error">
          <p>{error}</p>
        </div>
      )}
    </section>
  );
}
