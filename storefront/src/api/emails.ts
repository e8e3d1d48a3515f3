import type { UnsubscribeAnswer } from '@contract/identity/profile/reply-emails.schemas';
import { postJson } from './client';

/** The unsubscribe link of a reply email (its `token`): turns those emails off, signed in or not. */
export function unsubscribeFromReplies(token: string): Promise<UnsubscribeAnswer> {
  return postJson<UnsubscribeAnswer>(`/api/store/unsubscribe/replies?token=${encodeURIComponent(token)}`);
}
