import type { Knex } from 'knex';

/** A course's payment plan as the sales page offers it: this many monthly payments of this amount (§23). */
export interface PaymentPlanOffer {
  id: string;
  instalments: number;
  instalmentAmount: number;
  currency: string;
}

/** The plan a product offers now, if any. */
export async function activePlanOf(conn: Knex, productId: string): Promise<PaymentPlanOffer | null> {
  const plan = (await conn('paymentPlans')
    .where({ productId, status: 'active' })
    .first('id', 'instalments', 'instalmentAmount', 'currency')) as PaymentPlanOffer | undefined;
  return plan ?? null;
}
