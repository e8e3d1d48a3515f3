import { z } from 'zod';
import { EmailAddress } from '../../identity/schemas';

// The waitlist's storefront endpoints: request schemas, then "Answers" (dates as `Date`; the apps read them as
// `Wire<…>`). The console's `waitlist-entries` resource is read-only (and delete), so it has no write schema.

/** POST /api/store/products/:id/waitlist */
export const JoinWaitlistBody = z.object({ email: EmailAddress }).strict();

/** POST /api/store/waitlist/leave: the two halves of the leave link in a waitlist email. */
export const LeaveWaitlistBody = z
  .object({
    entry: z.uuid('must be the entry id from the link'),
    token: z.string().min(1, 'is required').max(200, 'is too long'),
  })
  .strict();

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * POST /api/store/products/:id/waitlist: on the list (just now, or already). The same answer whoever the address
 * belongs to: it says nothing about accounts.
 */
export interface JoinedWaitlist {
  status: 'joined' | 'already-joined';
  productId: string;
  email: string;
}

/** POST /api/store/waitlist/leave */
export interface LeftWaitlist {
  /** `not-on-list`: the entry is gone already (left before, or removed by staff). */
  status: 'left' | 'not-on-list';
  product: { id: string; name: string; slug: string | null } | null;
}

/** Someone on a product's waitlist, as the console sees them (the `waitlist-entries` resource). */
export interface WaitlistEntryRecord {
  id: string;
  productId: string;
  email: string;
  /** When they joined. */
  createdAt: Date;
  /** When the last "it is open" email was queued for them; null until the product opens. */
  notifiedAt: Date | null;
  /** How many openings of the product they were emailed for, last (0: none yet). */
  notifiedOpening: number;
  outboxEmailId: string | null;
}
