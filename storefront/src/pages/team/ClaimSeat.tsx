import { useId, useState } from 'react';
import { Link } from 'wouter';
import { isApiError } from '../../api/client';
import { claimSeat, type TeamView } from '../../api/teams';
import { ActionButton } from '../../ActionFeedback';
import { failedTo } from '../../useConfirmation';

/** Buying for a team grants the buyer nothing by itself: one click takes one of the seats for them. */
export function ClaimSeat({ team, onClaimed }: { team: TeamView; onClaimed: (team: TeamView) => void }) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ text: string; owned?: boolean } | null>(null);

  async function handleClaim() {
    setBusy(true);
    setError(null);
    try {
      onClaimed(await claimSeat(team.purchaseId));
    } catch (caught) {
      setBusy(false);
      if (isApiError(caught, 'already-purchased'))
        setError({ text: `${caught.message} You do not need a seat from this team.`, owned: true });
      else if (isApiError(caught, 'coupon-used-up'))
        setError({ text: 'Every seat was taken in the meantime. Buy one more seat below, then claim it.' });
      else
        setError({
          text: failedTo('give you a seat')(caught),
        });
    }
  }

  return (
    <section className="team-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Your own seat</h2>
      {team.seats.free > 0 ? (
        <>
          <p>Buying seats for a team does not give you the course yourself. To study it too, take one of the seats.</p>
          <ActionButton busy={busy} busyText="Taking a seat…" onClick={handleClaim}>
            Claim a seat for myself
          </ActionButton>
        </>
      ) : (
        <p>
          Buying seats for a team does not give you the course yourself, and every seat is taken. To study it too, buy
          one more seat below and claim it here.
        </p>
      )}
      {error && (
        <div role="alert" className="notice notice-error">
          <p>{error.text}</p>
          {error.owned && (
            <p>
              <Link to="/purchases">See it in My purchases</Link>
            </p>
          )}
        </div>
      )}
    </section>
  );
}
