import type { DisplayNameAnswer } from '@contract/identity/profile/display-name.schemas';
import type { Wire } from '@contract/shared/wire';
import type { StoreUser } from './identity';
import { putJson } from './client';

/** Sets the name shown on the learner's comments; an empty name clears it ("Learner 4F2A" again: shared/shown-name.ts). */
export async function putDisplayName(name: string): Promise<StoreUser> {
  return (await putJson<Wire<DisplayNameAnswer>>('/api/store/me/name', { name })).user;
}
