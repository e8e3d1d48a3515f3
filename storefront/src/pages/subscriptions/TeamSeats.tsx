import { useId, useState, type FormEvent } from 'react';
import { formatMoney } from '../../../../api/src/shared/money';
import { plural } from '../../../../api/src/shared/words';
import { addSeats, getSeats, quoteSeats, seatInvitePath, type SeatQuote, type Seats } from '../../api/subscriptions';
import { BusyStatus, FieldAlert } from '../../ActionFeedback';
import { CopyLinkField } from '../../CopyLinkField';
import { formatDate } from '../../format';
import { LoadStatus } from '../../LoadStatus';
import { useAccountAsync } from '../../useAccountAsync';
import { useAction } from '../../useAction';
import { failedTo } from '../../useConfirmation';
import { SeatsField } from '../product/SeatsField';

/**
 * A team membership's seats on the Billing page (docs/domain.md §22): how many are taken, the invite link to share,
 * and more seats, their prorated charge shown before they are confirmed. A one-seat membership shows nothing.
 */
export function TeamSeats({ subscriptionId, canAdd }: { subscriptionId: string; canAdd: boolean }) {
  const seats = useAccountAsync(() => getSeats(subscriptionId));
  if (seats.status !== 'ready') return <LoadStatus state={seats} retry={seats.retry} what="the seats" />;
  if (seats.data.quantity < 2) return null;
  return <TeamSeatsReady subscriptionId={subscriptionId} initial={seats.data} canAdd={canAdd} />;
}

function TeamSeatsReady(props: { subscriptionId: string; initial: Seats; canAdd: boolean }) {
  const id = useId();
  const [seats, setSeats] = useState(props.initial);
  const used = seats.quantity - seats.free;
  const link = `${window.location.origin}${seatInvitePath(seats.inviteCode)}`;
  return (
    <section className="team-seats" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Team seats</h3>
      <p>
        {used} of {plural(seats.quantity, 'seat')} taken (one is yours).
      </p>
      {seats.holders.length > 0 && (
        <ul className="seat-holders">
          {seats.holders.map((holder) => (
            <li key={holder.userId}>{holder.email}</li>
          ))}
        </ul>
      )}
      <CopyLinkField
        label="Invite link"
        url={link}
        hint={
          seats.free > 0
            ? `Share it with your team: each person who opens it takes one of the ${plural(seats.free, 'free seat')}.`
            : 'Every seat is taken: add seats so more people can join through this link.'
        }
      />
      {props.canAdd && <AddSeats subscriptionId={props.subscriptionId} added={setSeats} />}
    </section>
  );
}

/** "Add seats": the number, then its price (now and each period) and Confirm; nothing is charged before. */
function AddSeats({ subscriptionId, added }: { subscriptionId: string; added: (seats: Seats) => void }) {
  const id = useId();
  const [text, setText] = useState('1');
  const [quote, setQuote] = useState<SeatQuote | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const action = useAction(failedTo('add the seats'));
  const n = Number(text.trim());
  const valid = Number.isInteger(n) && n >= 1 && n <= 99;

  function handleReview(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(null);
    if (!valid) return;
    void action.run(async () => setQuote(await quoteSeats(subscriptionId, n)));
  }

  const confirm = () =>
    action.run(async () => {
      const seats = await addSeats(subscriptionId, quote!.added);
      setDone(`${plural(quote!.added, 'seat')} added.`);
      setQuote(null);
      setText('1');
      added(seats);
    });

  return (
    <form className="stack add-seats" onSubmit={handleReview} noValidate>
      <SeatsField
        label="Seats to add"
        id={id}
        max={99}
        value={text}
        onChange={(value) => {
          setText(value);
          setQuote(null);
        }}
        onBlur={() => undefined}
        error={text.trim() && !valid ? 'Enter a whole number of seats from 1 to 99.' : null}
        hint="You see the price before anything is charged."
        hintId={`${id}-hint`}
      />
      {!quote && (
        <div className="actions">
          <button type="submit" className="button-quiet" disabled={action.busy}>
            Add seats
          </button>
        </div>
      )}
      {quote && (
        <div className="switch-confirm" role="group" aria-label="Confirm the added seats">
          <p>
            {plural(quote.added, 'more seat')}:{' '}
            {quote.dueNow > 0
              ? `${formatMoney(quote.dueNow, quote.currency)} charged now for the rest of this period (to ${formatDate(quote.periodEnd)}),`
              : 'nothing charged now,'}{' '}
            then {formatMoney(quote.eachPeriod, quote.currency)} each period for every seat.
          </p>
          <div className="actions">
            <button type="button" className="button-buy" onClick={() => void confirm()} disabled={action.busy}>
              Confirm and pay
            </button>
            <button type="button" className="button-quiet" onClick={() => setQuote(null)} disabled={action.busy}>
              Not now
            </button>
          </div>
        </div>
      )}
      <BusyStatus busy={action.busy} text={quote ? 'Adding the seats…' : 'Working out the price…'} />
      <p role="status" className="hint status-message">
        {done}
      </p>
      <FieldAlert error={action.error} />
    </form>
  );
}
