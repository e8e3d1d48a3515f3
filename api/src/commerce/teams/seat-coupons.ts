import { AppError } from '../../shared/errors';

/**
 * Why a team's seat coupon (one with `bulkPurchaseId`) is never deactivated from the console: its invite link would
 * die while the team's pages still show free seats. It ends with its purchase (a full refund or a ban deactivates it).
 */
export const TEAM_COUPON_STAYS_ACTIVE =
  "A team's seat coupon: deactivating it would break the team's invite link while its pages still show free seats. It ends with its team purchase.";

export const teamCouponStaysActive = () =>
  new AppError('coupon-is-team-seats', TEAM_COUPON_STAYS_ACTIVE, { status: TEAM_COUPON_STAYS_ACTIVE });
