import type * as Waitlist from '@contract/catalog/waitlist/schemas';
import { postJson } from './client';

export type JoinedWaitlist = Waitlist.JoinedWaitlist;
export type LeftWaitlist = Waitlist.LeftWaitlist;

/** Puts an address on a product's waitlist; joining again is fine (`already-joined`). */
export function joinWaitlist(productId: string, email: string): Promise<JoinedWaitlist> {
  return postJson<JoinedWaitlist>(`/api/store/products/${encodeURIComponent(productId)}/waitlist`, { email });
}

/** The leave link of a waitlist email (its `entry` and `token`). */
export function leaveWaitlist(entry: string, token: string): Promise<LeftWaitlist> {
  return postJson<LeftWaitlist>('/api/store/waitlist/leave', { entry, token });
}
