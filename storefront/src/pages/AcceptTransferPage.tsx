import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { productPath } from '../api/catalog';
import { isApiError } from '../api/client';
import type { StoreUser } from '../api/identity';
import { signOut } from '../api/identity';
import { acceptTransfer, getTransfer, verifyTransfer, type TransferView } from '../api/transfers';
import { formatDateTimeWithZone } from '../format';
import { LoadStatus } from '../LoadStatus';
import { useHere } from '../navigation';
import { loginPath } from '../redirects';
import { RequireSignIn } from '../RequireSignIn';
import { useSession } from '../session';
import { useDocumentTitle } from '../useDocumentTitle';
import { useFocusOnChange } from '../useFocusOnChange';
import { ActionButton } from '../ActionFeedback';
import { useAccountAsync } from '../useAccountAsync';
import { useAction } from '../useAction';
import { failureText } from '../useConfirmation';

/**
 * /transfers/:transferId: the link emailed to the person a purchase is offered to. Signing in with that address
 * and landing here verifies them; Accept makes the purchase (and its invoice) theirs.
 */
export function AcceptTransferPage() {
  return <RequireSignIn>{(user) => <AcceptTransfer user={user} />}</RequireSignIn>;
}

/** The offer as it is, verifying the recipient on the way when it was only just sent. */
async function loadOffer(transferId: string): Promise<TransferView> {
  const transfer = await getTransfer(transferId);
  return transfer.state === 'INITIATED' ? verifyTransfer(transferId) : transfer;
}

type Problem = 'not-found' | 'wrong-account' | 'expired' | 'not-available' | 'canceled';

function problemOf(error: unknown): Problem | null {
  if (isApiError(error, 'transfer-not-found', 'not-found', 'validation-failed')) return 'not-found';
  if (isApiError(error, 'not-transfer-recipient')) return 'wrong-account';
  if (isApiError(error, 'transfer-expired')) return 'expired';
  if (isApiError(error, 'transfer-not-available')) return 'not-available';
  return null;
}

function AcceptTransfer({ user }: { user: StoreUser }) {
  const { transferId = '' } = useParams();
  const offer = useAccountAsync(() => loadOffer(transferId), [transferId]);
  const { refresh } = useSession();
  const [accepted, setAccepted] = useState<TransferView | null>(null);
  const [acceptProblem, setAcceptProblem] = useState<Problem | null>(null);
  const failure = offer.status === 'error' ? offer.error : null;
  const transfer = accepted ?? (offer.status === 'ready' ? offer.data : null);

  let problem = acceptProblem ?? problemOf(failure);
  if (!problem && transfer?.state === 'EXPIRED') problem = 'expired';
  if (!problem && transfer?.state === 'CANCELED') problem = 'canceled';
  if (!problem && transfer?.state === 'AVAILABLE') problem = 'not-available';
  const done = !problem && (transfer?.state === 'COMPLETED' || transfer?.state === 'CONFIRMED');
  const view = problem ?? (done ? 'done' : transfer ? 'offer' : offer.status);
  const headingRef = useFocusOnChange<HTMLHeadingElement>(view);

  const heading = problem
    ? PROBLEM_HEADINGS[problem]
    : done
      ? 'It’s yours'
      : transfer
        ? `A course for you: ${transfer.product.name}`
        : 'A course for you';
  useDocumentTitle(heading);

  return (
    <section className="narrow transfer">
      <h1 ref={headingRef} tabIndex={-1}>
        {heading}
      </h1>
      {problem ? (
        <ProblemDetails problem={problem} user={user} />
      ) : done && transfer ? (
        <Accepted transfer={transfer} />
      ) : transfer ? (
        <Offer transfer={transfer} onAccepted={setAccepted} onProblem={setAcceptProblem} onSignedOut={refresh} />
      ) : (
        <LoadStatus state={offer} retry={offer.retry} what="the offer" />
      )}
    </section>
  );
}

const PROBLEM_HEADINGS: Record<Problem, string> = {
  'not-found': 'Offer not found',
  'wrong-account': 'This offer is for another email address',
  expired: 'This offer has expired',
  'not-available': 'This offer can no longer be accepted',
  canceled: 'This offer was withdrawn',
};

function Offer({
  transfer,
  onAccepted,
  onProblem,
  onSignedOut,
}: {
  transfer: TransferView;
  onAccepted: (transfer: TransferView) => void;
  onProblem: (problem: Problem) => void;
  onSignedOut: () => void;
}) {
  const { busy, error, run } = useAction((caught) => {
    const problem = problemOf(caught);
    if (isApiError(caught, 'unauthenticated')) onSignedOut();
    else if (problem) onProblem(problem);
    else return failureText(caught);
    return null;
  });
  const giver = transfer.ownerEmail ?? 'Someone';
  const handleAccept = () => run(async () => onAccepted(await acceptTransfer(transfer.id)));

  return (
    <>
      <p className="transfer-offer">
        {giver} is giving you <strong>{transfer.product.name}</strong>.
      </p>
      <p>
        When you accept, the course is yours, with its invoice, under My purchases; the person giving it loses access.
        Accept before <time dateTime={transfer.expiresAt}>{formatDateTimeWithZone(transfer.expiresAt)}</time>.
      </p>
      <ActionButton busy={busy} busyText="Accepting…" onClick={handleAccept}>
        Accept
      </ActionButton>
      {error && (
        <div role="alert" className="notice notice-error">
          <p>We could not complete the transfer: {error}</p>
          <p className="hint">Nothing changed. Try again in a moment.</p>
        </div>
      )}
    </>
  );
}

function Accepted({ transfer }: { transfer: TransferView }) {
  return (
    <>
      <p role="status">
        <strong>{transfer.product.name}</strong> is now in your account, with its invoice.
      </p>
      <p className="actions">
        <Link className="button-link" to={productPath({ id: transfer.product.id, slug: null })}>
          Go to the course
        </Link>
        <Link to="/purchases">My purchases</Link>
      </p>
    </>
  );
}

function ProblemDetails({ problem, user }: { problem: Problem; user: StoreUser }) {
  switch (problem) {
    case 'wrong-account':
      return <WrongAccount user={user} />;
    case 'not-found':
      return (
        <p>
          There is no offer at this address. Check that you opened the whole link from the email, or ask the person who
          sent it. <Link to="/">Browse the courses</Link>
        </p>
      );
    case 'expired':
      return (
        <p>
          A course can only be given away for a short time after it was bought, and that time has passed. The course
          stays with the person who offered it. <Link to="/">Browse the courses</Link>
        </p>
      );
    case 'canceled':
      return (
        <p>
          The person who offered you the course withdrew the offer, so it stays with them. Ask them if you think this is
          a mistake. <Link to="/">Browse the courses</Link>
        </p>
      );
    case 'not-available':
      return (
        <p>
          The offer was withdrawn, already accepted, or the purchase was refunded, so there is nothing to accept here.
          Your courses are in <Link to="/purchases">My purchases</Link>.
        </p>
      );
  }
}

/** Signed in as someone else: say which account the link needs, and switch accounts coming back here. */
function WrongAccount({ user }: { user: StoreUser }) {
  const here = useHere();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  async function handleSwitch() {
    setBusy(true);
    setFailed(false);
    try {
      await signOut();
    } catch (caught) {
      if (!isApiError(caught, 'unauthenticated')) {
        setBusy(false);
        setFailed(true);
        return;
      }
    }
    // A full page load, as the header's Sign out does: nothing of this session stays in memory.
    window.location.assign(loginPath(here));
  }

  return (
    <>
      <p>
        You are signed in as <strong>{user.email}</strong>, but this offer was sent to a different address. To accept
        it, sign in with the email address that received the link.
      </p>
      <ActionButton busy={busy} busyText="Signing out…" onClick={handleSwitch}>
        Sign out and sign in with that address
      </ActionButton>
      {failed && (
        <p role="alert" className="field-error">
          Could not sign out. Try again.
        </p>
      )}
      <p className="hint">You come back to this page after signing in.</p>
    </>
  );
}
