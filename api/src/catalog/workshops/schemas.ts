import { z } from 'zod';

// The storefront's workshop endpoints: request schemas, then "Answers" (dates as `Date`; the storefront reads them
// as `Wire<…>`). The console's session resource has its schemas in api/src/admin/schemas/workshops.ts.

/** GET /api/store/workshops/:file: a session's invite, `<session id>.ics`. */
export const InviteFileParam = z.object({
  file: z
    .string()
    .regex(/\.ics$/i, 'must be a session id and .ics')
    .transform((file) => file.slice(0, -'.ics'.length).toLowerCase())
    .pipe(z.uuid('must be a session id and .ics')),
});

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────

/** A session as the console sees it (the `workshop-sessions` resource: the row, every column). */
export interface WorkshopSessionRecord {
  id: string;
  productId: string;
  title: string;
  startsAt: Date;
  endsAt: Date;
  timeZone: string;
  joinUrl: string | null;
  /** Changes so far (the calendar invite's SEQUENCE); read-only. */
  sequence: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A workshop session as anyone sees it on the product page: no join link. */
export interface ScheduledSession {
  id: string;
  title: string;
  startsAt: Date;
  endsAt: Date;
  /** The workshop's own IANA time zone (Europe/Berlin), named beside the visitor's local times. */
  timeZone: string;
}

/** A session as someone who holds the workshop sees it. */
export interface HeldSession extends ScheduledSession {
  /** Where to join; null until the organisers set it. */
  joinUrl: string | null;
  /** The session's calendar invite (`/api/store/workshops/<id>.ics`). */
  inviteUrl: string;
}

/** GET /api/store/workshops (in `data`): each live workshop the learner holds, with its sessions not over yet. */
export interface MyWorkshop {
  product: { id: string; name: string; slug: string | null };
  sessions: HeldSession[];
  /** The first session not over yet (under way or next), or null when none is scheduled. */
  nextSession: HeldSession | null;
  /** One calendar file with every session not over yet (`/api/store/products/<id>/calendar.ics`). */
  calendarUrl: string;
}
