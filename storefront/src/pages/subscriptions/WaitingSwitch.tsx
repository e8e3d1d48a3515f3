import { formatMoney } from '../../../../api/src/shared/money';
import { getBilling, undoSwitch, type Billing } from '../../api/subscriptions';
import { isApiError } from '../../api/client';
import { ActionButton, FieldAlert } from '../../ActionFeedback';
import { formatDate } from '../../format';
import { useAction } from '../../useAction';
import { failedTo } from '../../useConfirmation';

const EVERY = { month: 'month', year: 'year' } as const;
const LY = { month: 'monthly', year: 'yearly' } as const;

/**
 * A switch waiting for the end of the period paid (docs/domain.md §22): what the membership becomes and from when,
 * that nothing was charged for it, and the way to keep the plan billed now (the switch undone, nothing charged).
 */
export function WaitingSwitch({
  subscriptionId,
  billing,
  undone,
}: {
  subscriptionId: string;
  billing: Billing;
  undone: (billing: Billing) => void;
}) {
  // The switch made meanwhile (its day came): going back would charge, so it is refused and the billing shown again.
  const action = useAction((caught) =>
    isApiError(caught, 'quote-changed')
      ? 'Your plan has switched already: see its billing above.'
      : failedTo('undo the switch')(caught),
  );
  const undo = async (kept: 'month' | 'year') => {
    try {
      undone(await undoSwitch(subscriptionId, kept));
    } catch (caught) {
      if (isApiError(caught, 'quote-changed')) undone(await getBilling(subscriptionId));
      throw caught;
    }
  };
  const waiting = billing.scheduledSwitch;
  const kept = billing.interval;
  if (!waiting) return null;
  return (
    <div className="waiting-switch" role="group" aria-label={`Switches to ${LY[waiting.interval]}`}>
      <p>
        Switches to {LY[waiting.interval]} on {formatDate(waiting.on)}: {formatMoney(waiting.amount, waiting.currency)}{' '}
        each {EVERY[waiting.interval]} from then. Nothing was charged for the switch.
      </p>
      {kept && (
        <ActionButton
          busy={action.busy}
          busyText="Undoing the switch…"
          className="button-quiet"
          onClick={() => void action.run(() => undo(kept))}
        >
          Keep {LY[kept]}
        </ActionButton>
      )}
      <FieldAlert error={action.error} />
    </div>
  );
}
