import { z } from 'zod';

/** GET /api/admin/users/:id/timeline and /api/admin/purchases/:id/timeline: a page, newest first. */
export const TimelineQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(25),
});
export type TimelineQuery = z.infer<typeof TimelineQuery>;

export const TIMELINE_KINDS = [
  'purchase',
  'seat',
  'transfer',
  'payment',
  'refund',
  'dispute',
  'sign-in',
  'email',
  'note',
  'staff-action',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/** One thing that happened. `data` holds the figures `summary` is written from, for integrators. */
export interface TimelineEvent {
  /** `<kind>:<record id>`, unique in a timeline. */
  id: string;
  at: Date;
  kind: TimelineKind;
  summary: string;
  detail: string | null;
  /** Staff who did it (a refund, a note, an audited action), when not the person themselves. */
  by: string | null;
  /** The console record it opens, if any. */
  link: { resource: string; id: string } | null;
  data: Record<string, unknown>;
}

export interface TimelinePage {
  data: TimelineEvent[];
  total: number;
  page: number;
  perPage: number;
}

/** POST /api/admin/users/:id/notes and /api/admin/purchases/:id/notes. */
export const NoteBody = z.strictObject({
  body: z.string().trim().min(1, 'Write the note first.').max(5000, 'A note holds at most 5,000 characters.'),
});

/** An internal note as the console reads it back. */
export interface StaffNote {
  id: string;
  userId: string;
  purchaseId: string | null;
  authorEmail: string;
  body: string;
  createdAt: Date;
}
