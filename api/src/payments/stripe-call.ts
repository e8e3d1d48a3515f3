import { AppError } from '../shared/errors';

/** Stripe's failures (network, outage, a rejected request of ours) as one error of ours, with Stripe's message logged. */
export async function callStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw Object.assign(
      new AppError(
        'payment-provider-unavailable',
        `The payment provider could not ${what}. Please try again in a moment.`,
      ),
      {
        cause: detail,
      },
    );
  }
}
