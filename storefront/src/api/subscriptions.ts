import type * as Subscriptions from '@contract/commerce/subscriptions/subscriptions.schemas';
import type { Wire } from '@contract/shared/wire';
import { getJson, postJson } from './client';

export type Subscription = Wire<Subscriptions.SubscriptionView>;

/** POST /api/store/subscriptions: where the learner subscribes (the provider's page). */
export async function subscribe(productId: string): Promise<string> {
  const { data } = await postJson<{ data: Subscriptions.SubscribeAnswer }>('/api/store/subscriptions', { productId });
  return data.url;
}

/** GET /api/store/subscriptions: the signed-in learner's subscriptions, newest first. */
export async function listSubscriptions(): Promise<Subscription[]> {
  return (await getJson<{ data: Subscription[] }>('/api/store/subscriptions')).data;
}

/** Ends the subscription at its period's end (`cancel`), or keeps it going again. */
export async function setCancelAtPeriodEnd(id: string, cancel: boolean): Promise<Subscription> {
  const action = cancel ? 'cancel' : 'resume';
  return (await postJson<{ data: Subscription }>(`/api/store/subscriptions/${id}/${action}`)).data;
}
