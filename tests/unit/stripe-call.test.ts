import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { callStripe } from '../../api/src/payments/stripe-call';
import { AppError } from '../../api/src/shared/errors';

describe('a call to Stripe', () => {
  it('starts with no stack traces taken (the SDK records one per request), and restores the limit after', async () => {
    const before = Error.stackTraceLimit;
    let during: number | undefined;
    let stack: string | undefined;
    await callStripe('look', async () => {
      during = Error.stackTraceLimit;
      stack = new Error('the SDK records its caller here').stack;
    });
    expect(during).toBe(0);
    expect(stack?.split('\n')).toHaveLength(1);
    expect(Error.stackTraceLimit).toBe(before);
  });

  it('restores the limit when the call throws at once, and answers an error of ours', async () => {
    const before = Error.stackTraceLimit;
    const refused = callStripe('refund the payment', () => {
      throw new Stripe.errors.StripeConnectionError({ message: 'connection reset' });
    });
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({
      message: expect.stringContaining('could not refund the payment'),
      cause: 'connection reset',
    });
    expect(Error.stackTraceLimit).toBe(before);
  });

  it('takes stack traces again once the call is under way (an error after its first wait keeps its stack)', async () => {
    const stack = await callStripe('look', async () => {
      await Promise.resolve();
      return new Error('later').stack;
    });
    expect(stack!.split('\n').length).toBeGreaterThan(1);
  });
});
