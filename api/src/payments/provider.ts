/** What checkout and refunds need from a payment provider; Stripe and the built-in test provider implement it. */
export interface CheckoutRequest {
  /** Our checkout id, kept by the provider as its reference. */
  reference: string;
  description: string;
  amount: number; // cents, after every discount
  currency: string;
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
}

export interface ProviderCheckout {
  status: 'open' | 'paid' | 'canceled';
  amount: number;
  currency: string;
  charge: { identifier: string; amount: number; fee: number } | null;
  customer: { identifier: string; email: string } | null;
}

export interface PaymentProvider {
  /** The merchant account's label: 'stripe' or 'test'. */
  label: string;
  accountIdentifier: string;
  createCheckout(request: CheckoutRequest): Promise<{ identifier: string; url: string }>;
  retrieveCheckout(identifier: string): Promise<ProviderCheckout>;
  /** Refunds part or all of a charge; the same idempotency key never refunds twice. */
  refund(input: { chargeIdentifier: string; amount: number; idempotencyKey: string }): Promise<{ amount: number }>;
}
