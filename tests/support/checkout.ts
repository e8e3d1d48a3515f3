import type { Db } from '../../api/src/db/connection';
import type { User } from '../../api/src/identity/models';
import type { Services } from '../../api/src/services';

/** The provider session of one of our checkouts (what a payment page or webhook names). */
export async function sessionOfCheckout(db: Db, checkoutId: string): Promise<string> {
  const row = await db('checkouts as c')
    .join('merchantSessions as s', 's.id', 'c.merchantSessionId')
    .where('c.id', checkoutId)
    .first('s.identifier');
  return row.identifier;
}

export interface PaidCheckout {
  buyer: User;
  productId: string;
  quantity?: number;
  team?: boolean;
  upgradeFromId?: string;
}

/** Starts a checkout and pays it on the built-in provider's page, as a buyer would; not yet fulfilled. */
export async function paidTestCheckout(services: Services, db: Db, input: PaidCheckout): Promise<string> {
  const quantity = input.quantity ?? 1;
  const { checkoutId } = await services.checkouts.create({
    productId: input.productId,
    quantity,
    team: input.team ?? quantity > 1,
    ppp: false,
    buyer: input.buyer,
    country: 'US',
    // Billed in Oregon: a state the demo school (registered in some US states) collects no sales tax in.
    billing: { country: 'US', region: 'OR' },
    ip: null,
    upgradeFromId: input.upgradeFromId,
  });
  await services.testProvider.pay(await sessionOfCheckout(db, checkoutId));
  return checkoutId;
}

/** Bought, paid and fulfilled: the purchase's id. */
export async function boughtWithTestProvider(services: Services, db: Db, input: PaidCheckout): Promise<string> {
  return (await services.checkouts.fulfil(await paidTestCheckout(services, db, input))).purchaseId!;
}
