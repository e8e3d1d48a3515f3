import { postJson } from './client';

/** POST /api/store/payment-plans: where the learner buys a course in instalments (the provider's page). */
export async function buyPaymentPlan(productId: string): Promise<string> {
  const { data } = await postJson<{ data: { url: string } }>('/api/store/payment-plans', { productId });
  return data.url;
}
