import { z } from 'zod';

/**
 * POST /api/store/unsubscribe/replies?token=…: the token of a reply email's unsubscribe link (in the address, as
 * RFC 8058's one-click POST sends it, with a form body that says nothing more).
 */
export const UnsubscribeQuery = z.object({ token: z.string().trim().min(1).max(200) });

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────

/** What the link turned off: reply emails, now off. */
export interface UnsubscribeAnswer {
  replies: false;
}
