import type { Knex } from 'knex';
import { liveTeams } from '../../catalog/seats-sold';

/** Seats a buyer already bought for a product (the team tier counts them): their live team's seats, once. */
export async function seatsBoughtBy(trx: Knex | Knex.Transaction, userId: string, productId: string): Promise<number> {
  const [row] = (await trx
    .from(liveTeams(trx).where({ 'p.userId': userId, 'p.productId': productId }).as('t'))
    .sum({ seats: 'maxUses' })) as {
    seats: number | string | null;
  }[];
  return Number(row?.seats ?? 0);
}

/** Someone removed from a team (revoked, or banned): its invite link refuses them until the owner lets them back in. */
export async function keepOutOfTeam(
  trx: Knex.Transaction,
  couponId: string,
  userId: string,
  byId: string | null | undefined,
): Promise<void> {
  await trx('teamSeatRevocations')
    .insert({ couponId, userId, revokedById: byId ?? null })
    .onConflict(['couponId', 'userId'])
    .ignore();
}
