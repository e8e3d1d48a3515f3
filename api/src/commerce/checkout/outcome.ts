import type { CheckoutOutcome } from '../schemas';
import { holdingOf } from '../purchases/ownership';
import type { CheckoutDeps } from './checkout-deps';
import { inviteUrlOf, leadInPath, teamOfTeamPurchase } from './lead-in';
import { fulfilCheckout } from './settle';
import { ownerOfPurchase, receiptOfCheckout, teamOfPurchase } from './thanks-rows';

/** How long after a purchase its thank-you page names the receipt's address and the invite link to anyone with it. */
const THANKS_PRIVATE_MS = 60 * 60 * 1000;

type OutcomeDeps = Pick<CheckoutDeps, 'db' | 'clock' | 'config' | 'outbox' | 'provider' | 'refunds'>;

/**
 * The thank-you page's answer: the settlement, and for a team purchase its team (the whole team's seats), since
 * a team purchase opens no course until its buyer takes a seat (docs/domain.md §7). The receipt's address and the
 * team's invite link (a bearer link to a seat) are said only to the buyer signed in, or in the first hour after
 * the purchase (the buyer's browser coming back from paying): a thank-you address shared later shows neither.
 */
export async function checkoutOutcome(
  deps: OutcomeDeps,
  checkoutId: string,
  viewerUserId: string | null = null,
): Promise<CheckoutOutcome> {
  const { db, clock, config } = deps;
  const settled = await fulfilCheckout(deps, checkoutId);
  if (settled.status !== 'fulfilled' || !settled.purchaseId) return { ...settled, team: null, receipt: null };
  const [team, receipt] = await Promise.all([
    teamOfPurchase(db, settled.purchaseId),
    receiptOfCheckout(db, checkoutId),
  ]);
  const invite = team && (await teamOfTeamPurchase(db, settled.purchaseId));
  const forTheBuyer =
    !!receipt &&
    (viewerUserId === receipt.buyerUserId || clock.now().getTime() - receipt.purchasedAt.getTime() < THANKS_PRIVATE_MS);
  // A buyer who has the course already (bought, or a seat elsewhere) has only seats to give away: no seat to take.
  const bought = team && (await ownerOfPurchase(db, settled.purchaseId));
  const buyerHasCourse = Boolean(bought && (await holdingOf(db, bought.userId, bought.productId)));
  return {
    ...settled,
    team:
      team && invite
        ? {
            ...team,
            buyerHasCourse,
            gift: receipt?.gift === true,
            inviteUrl: forTheBuyer ? inviteUrlOf(config.publicUrl, invite.inviteCode) : null,
          }
        : null,
    receipt: receipt
      ? {
          product: receipt.product,
          quantity: receipt.quantity,
          amount: receipt.amount,
          currency: receipt.currency,
          invoiceId: receipt.invoiceId,
          email: forTheBuyer ? receipt.email : null,
          // A team purchase opens nothing until its buyer takes a seat (docs/domain.md §7): its step is the team page.
          coursePath: team ? null : await leadInPath(db, receipt.product.id),
        }
      : null,
  };
}
