import type { TeamView } from '../schemas';
import { bindDeps } from '../../shared/bind-deps';
import { claimForOwner, inviteOf, redeemInvite } from './redeem';
import { readmitMember, resetInvite, revokeSeat } from './revoke';
import { lockTeam, teamView, type TeamDeps, type TeamRow } from './team-view';

/** The buyer's teams, newest first. */
async function teamsOf(deps: TeamDeps, userId: string): Promise<TeamView[]> {
  const teams = (await deps
    .db('purchases')
    .where({ userId })
    .whereNotNull('bulkCouponId')
    .orderBy('createdAt', 'desc')) as TeamRow[];
  return Promise.all(teams.map((team) => teamView(deps, deps.db, team, userId)));
}

/** One team, as its owner (or staff) sees it. */
async function teamOf(deps: TeamDeps, purchaseId: string, actor: { id: string; staff: boolean }): Promise<TeamView> {
  return deps.db.transaction(async (trx) => teamView(deps, trx, await lockTeam(trx, purchaseId, actor), actor.id));
}

/**
 * Team purchases (docs/domain.md §7): the owner's team page (team-view.ts), seats claimed through the invite link
 * (redeem.ts), seats revoked and links replaced (revoke.ts).
 */
export function teamService(deps: TeamDeps) {
  const bound = bindDeps(deps);
  return {
    mine: bound(teamsOf),
    get: bound(teamOf),
    invite: bound(inviteOf),
    redeem: bound(redeemInvite),
    claimForOwner: bound(claimForOwner),
    revoke: bound(revokeSeat),
    readmit: bound(readmitMember),
    resetInvite: bound(resetInvite),
  };
}

export type TeamService = ReturnType<typeof teamService>;
