import type Stripe from 'stripe';
import { AppError } from '../shared/errors';
import type { StripeProvider } from './stripe-provider';

/** Stripe's side of its webhook: the provider and the secret its deliveries are signed with. */
export interface StripeWebhookConfig {
  provider: StripeProvider;
  webhookSecret: string;
}

/**
 * A Stripe event, verified against the raw body before anything else reads it. Refused when Stripe is not
 * configured (`stripe` null), when the signature is missing, or when it does not match the body.
 */
export function verifiedStripeEvent(
  stripe: StripeWebhookConfig | null,
  raw: Buffer,
  signature: string | undefined,
): Stripe.Event {
  if (!stripe) throw new AppError('payments-not-configured', 'Stripe is not configured on this server.');
  if (!signature) throw new AppError('webhook-signature-invalid', 'The Stripe-Signature header is missing.');
  try {
    return stripe.provider.stripe.webhooks.constructEvent(raw, signature, stripe.webhookSecret);
  } catch {
    throw new AppError(
      'webhook-signature-invalid',
      'The Stripe-Signature header does not match the body (or is too old).',
    );
  }
}
