import { table } from '../../db/base-model';

/** Someone waiting for a product that cannot be bought now; emailed once per opening of the product. */
export class WaitlistEntry extends table('waitlistEntries') {
  declare id: string;
  declare productId: string;
  /** Lower case. */
  declare email: string;
  /** When they joined. */
  declare createdAt: Date;
  /** When the last "it is open" email was queued for them; null until then. */
  declare notifiedAt: Date | null;
  /** The product's opening they were last emailed for (0: never). */
  declare notifiedOpening: number;
  declare outboxEmailId: string | null;
  /** The hash of the leave link's token in their last email. */
  declare leaveTokenHash: string | null;
}

/** Per product with a waitlist: whether the sweep last found it open, and how many times it opened. */
export class WaitlistProduct extends table('waitlistProducts', { idColumn: 'productId' }) {
  declare productId: string;
  declare open: boolean;
  declare opening: number;
  /** Why it could not be bought when last seen closed (archived or deleted: `unavailable`). */
  declare closedReason: 'sold-out' | 'not-open' | 'closed' | 'not-on-sale' | 'unavailable';
  declare changedAt: Date;
}
