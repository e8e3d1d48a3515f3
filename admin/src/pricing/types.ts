import type { ListedScenario, Simulation } from '@contract/pricing-simulator/schemas';
import type { Wire } from '@contract/shared/wire';

/** GET /api/admin/pricing/simulate's answer. */
export type SimulationAnswer = Wire<Simulation>;
/** A saved scenario (the `pricing-scenarios` resource), with what a buyer would see change in its latest answer. */
export type PricingScenario = Wire<ListedScenario>;

/** The simulator's inputs as the form holds them; sent as the query string of GET …/pricing/simulate. */
export interface SimulatorInputs {
  productId: string;
  userId?: string | null;
  upgradeFrom?: string | null;
  country?: string | null;
  ppp?: boolean;
  coupon?: string | null;
  quantity?: number | null;
  team?: boolean;
}

/** The inputs as the API's query: empty ones left out, flags as the storefront sends them. */
export function simulatorQuery(inputs: SimulatorInputs): Record<string, string> {
  const query: Record<string, string> = { productId: inputs.productId };
  if (inputs.userId) query.userId = inputs.userId;
  if (inputs.userId && inputs.upgradeFrom) query.upgradeFrom = inputs.upgradeFrom;
  if (inputs.country?.trim()) query.country = inputs.country.trim().toUpperCase();
  if (inputs.ppp) query.ppp = 'true';
  if (inputs.coupon?.trim()) query.coupon = inputs.coupon.trim();
  if (inputs.quantity) query.quantity = String(inputs.quantity);
  if (inputs.team) query.team = 'true';
  return query;
}
