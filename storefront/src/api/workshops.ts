import type * as Workshops from '@contract/catalog/workshops/schemas';
import type { ListAnswer, Wire } from '@contract/shared/wire';
import { getJson } from './client';

/** A session as the product page shows it: no join link. */
export type ScheduledSession = Wire<Workshops.ScheduledSession>;
/** A session of a workshop the learner holds: with the join link and its calendar invite. */
export type HeldSession = Wire<Workshops.HeldSession>;
export type MyWorkshop = Wire<Workshops.MyWorkshop>;

/** The sessions of a live workshop not over yet, soonest first. */
export async function getSchedule(productId: string): Promise<ScheduledSession[]> {
  return (await getJson<ListAnswer<ScheduledSession>>(`/api/store/products/${encodeURIComponent(productId)}/schedule`))
    .data;
}

/** The live workshops the signed-in learner holds, with their sessions. */
export async function listMyWorkshops(): Promise<MyWorkshop[]> {
  return (await getJson<ListAnswer<MyWorkshop>>('/api/store/workshops')).data;
}
