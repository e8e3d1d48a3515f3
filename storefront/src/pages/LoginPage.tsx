import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'wouter';
import { ApiError } from '../api/client';
import { getSignInProviders, gitHubSignInUrl, requestSignInLink } from '../api/identity';
import { getInvite } from '../api/teams';
import { getTransferPreview } from '../api/transfers';
import { formatWait } from '../format';
import { isOutsideStorefront, safeRedirect, signInReason, type SignInReason } from '../redirects';
import { useSession } from '../session';
import { useAsync } from '../useAsync';
import { useFocusOnChange } from '../useFocusOnChange';
import { ActionButton, describedBy, EmailInput, ErrorOrHint } from '../ActionFeedback';
import { useDocumentTitle } from '../useDocumentTitle';

const SIGN_IN_LINK_MINUTES = 15;

/** Why a GitHub sign-in came back to /login?error=github-…, in plain words. */
const GITHUB_ERRORS: Record<string, string> = {
  'github-state-invalid':
    'The GitHub sign-in took too long or was started in another tab, so we stopped it to keep your account safe. Please try again.',
  'github-denied':
    'GitHub sign-in was cancelled, so you are not signed in. You can try again or use your email instead.',
  'github-exchange-failed':
    'We could not finish signing you in with GitHub. Please try again in a moment, or use your email instead.',
  'github-no-verified-email':
    'Your GitHub account has no verified email address, so we cannot sign you in with it. Verify an email address on GitHub, or use your email below.',
  'github-account-blocked':
    'This account is blocked, so you cannot sign in. If you think this is a mistake, contact our support team.',
};

/** What the page says when the sign-in is for something: its heading, why, and the address to sign in with. */
interface SignInContext {
  heading: string;
  text: string;
  email: string | null;
}

/**
 * The context of a sign-in asked for by an invite or a transfer offer, from the API (what the invite page and the
 * offer's preview tell anyone with the link); null while loading, for any other page, or when the link is not valid.
 */
function useSignInContext(reason: SignInReason | null): SignInContext | null {
  const key = reason ? (reason.kind === 'invite' ? `invite:${reason.code}` : `transfer:${reason.transferId}`) : '';
  const loaded = useAsync(async (): Promise<SignInContext | null> => {
    if (!reason) return null;
    if (reason.kind === 'invite') {
      const invite = await getInvite(reason.code);
      const who = invite.ownerName ?? 'The team’s owner';
      return {
        heading: `Sign in to take your seat in ${invite.product.name}`,
        text: `${who} bought seats for ${invite.product.name} and invited you to take one. Sign in with your email address (new here? this creates your account, no password needed) and you come back to take your seat.`,
        email: null,
      };
    }
    const offer = await getTransferPreview(reason.transferId);
    return {
      heading: `Sign in to accept ${offer.product.name} from ${offer.from}`,
      text: `${offer.from} is giving you ${offer.product.name}. The offer was sent to ${offer.recipientEmail}: sign in with that address and you come back to accept it.`,
      email: offer.recipientEmail,
    };
  }, [key]);
  return loaded.status === 'ready' ? loaded.data : null;
}

export function LoginPage() {
  const [params] = useSearchParams();
  const redirectTo = safeRedirect(params.get('redirectTo'), null);
  const context = useSignInContext(signInReason(redirectTo));
  useDocumentTitle(context?.heading ?? 'Sign in');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const headingRef = useFocusOnChange<HTMLHeadingElement>(sentTo ? 'sent' : 'form');

  if (sentTo) {
    return (
      <section className="narrow">
        <h1 ref={headingRef} tabIndex={-1}>
          Check your inbox
        </h1>
        <p role="status">
          We sent a sign-in link to <strong>{sentTo}</strong>. Open it on this device to sign in. The link works once
          and expires in {SIGN_IN_LINK_MINUTES} minutes.
        </p>
        <p className="hint">No email after a few minutes? Check your spam folder, or ask for a new link.</p>
        <button type="button" className="button-quiet" onClick={() => setSentTo(null)}>
          Use a different email address
        </button>
      </section>
    );
  }

  return (
    <section className="narrow">
      <h1 ref={headingRef} tabIndex={-1}>
        {context?.heading ?? 'Sign in'}
      </h1>
      {context && <p className="sign-in-reason">{context.text}</p>}
      <GitHubError code={params.get('error')} />
      <AlreadySignedIn redirectTo={redirectTo} />
      <EmailLinkForm
        redirectTo={redirectTo}
        initialEmail={params.get('email')?.trim().slice(0, 254) ?? ''}
        suggestedEmail={context?.email ?? null}
        onSent={setSentTo}
      />
      <GitHubButton redirectTo={redirectTo} />
    </section>
  );
}

function GitHubError({ code }: { code: string | null }) {
  if (!code?.startsWith('github-')) return null;
  return (
    <div role="alert" className="notice notice-error">
      <p>
        {GITHUB_ERRORS[code] ?? 'We could not sign you in with GitHub. Please try again, or use your email instead.'}
      </p>
    </div>
  );
}

function AlreadySignedIn({ redirectTo }: { redirectTo: string | null }) {
  const { state } = useSession();
  if (state.status !== 'signed-in') return null;
  return (
    <p className="notice notice-info">
      You are already signed in as <strong>{state.user.email}</strong>.{' '}
      {!redirectTo ? (
        <Link to="/">Browse the courses</Link>
      ) : isOutsideStorefront(redirectTo) ? (
        <a href={redirectTo}>Go back to where you were</a>
      ) : (
        <Link to={redirectTo}>Go back to where you were</Link>
      )}
    </p>
  );
}

interface EmailLinkFormProps {
  redirectTo: string | null;
  /** From `?email=` (a page that knows the address, e.g. the buy form for an email that already owns the course). */
  initialEmail: string;
  /** The address the sign-in is for (a transfer offer's recipient), filled in once known unless one was typed. */
  suggestedEmail: string | null;
  onSent: (email: string) => void;
}

function EmailLinkForm({ redirectTo, initialEmail, suggestedEmail, onSent }: EmailLinkFormProps) {
  const id = useId();
  const [email, setEmail] = useState(initialEmail);
  const typed = useRef(false);
  useEffect(() => {
    if (suggestedEmail && !typed.current && !initialEmail) setEmail(suggestedEmail);
  }, [suggestedEmail, initialEmail]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    if (!address) {
      setError('Enter your email address.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const sent = await requestSignInLink(address, redirectTo);
      onSent(sent.email);
    } catch (caught) {
      setError(explainSignInLinkError(caught));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="stack" aria-busy={busy}>
      <div className="field">
        <label htmlFor={`${id}-email`}>Email</label>
        <EmailInput
          id={`${id}-email`}
          value={email}
          onChange={(value) => {
            typed.current = true;
            setEmail(value);
          }}
          invalid={!!error}
          describedBy={describedBy(id, error)}
        />
        <ErrorOrHint id={id} error={error}>
          We will email you a link that signs you in. No password needed.
        </ErrorOrHint>
      </div>
      <ActionButton busy={busy} busyText="Sending the link…" type="submit">
        Email me a sign-in link
      </ActionButton>
    </form>
  );
}

function explainSignInLinkError(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Something went wrong. Please try again.';
  if (error.code === 'rate-limited') {
    return `Too many sign-in emails were requested. Please wait ${formatWait(error.retryAfterSeconds)} and try again.`;
  }
  if (error.code === 'validation-failed' && error.body.errors?.email) {
    return `Email ${error.body.errors.email}.`;
  }
  return error.message;
}

function GitHubButton({ redirectTo }: { redirectTo: string | null }) {
  const [enabled, setEnabled] = useState(false);
  useEffect(() => {
    let live = true;
    getSignInProviders().then(
      (providers) => live && setEnabled(providers.github),
      () => undefined, // without the list, email sign-in still works
    );
    return () => {
      live = false;
    };
  }, []);
  if (!enabled) return null;
  return (
    <div className="alternative">
      <p className="divider">or</p>
      <a className="button-link" href={gitHubSignInUrl(redirectTo)}>
        Continue with GitHub
      </a>
    </div>
  );
}
