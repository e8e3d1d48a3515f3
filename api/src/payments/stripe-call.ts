import { AppError } from '../shared/errors';

/**
 * Starts `call` with no stack traces taken while it runs synchronously: the SDK records its caller's stack on every
 * request (to add to an error's), and with source maps on, as the server runs, each record maps every frame: some
 * 4 % of the server's busy time in a burst of payment webhooks. A failure is reported by its message (below), not by
 * that stack.
 */
function withoutCallSites<T>(call: () => Promise<T>): Promise<T> {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return call();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Stripe's failures (network, outage, a rejected request of ours) as one error of ours, with Stripe's message logged. */
export async function callStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await withoutCallSites(call);
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
