import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AddSeatsBody, BanBody, CompBody, RefundBody } from '../../api/src/commerce/schemas';
import { BlockBody, ViewAsBody } from '../../api/src/identity/schemas';
import { HideBody } from '../../api/src/learning/schemas';
import { RevokeBody } from '../../api/src/certificates/schemas';
import { STAFF_REASON_MAX, STAFF_REASON_MIN } from '../../api/src/shared/staff-reason';

const ID = '3f2b8c1e-9d4a-4e7b-8c6f-0a1b2c3d4e5f';

/** Every request that carries a staff reason, with the rest of a valid body. */
const required: [string, z.ZodType, (reason: string) => unknown][] = [
  ['block', BlockBody, (reason) => ({ reason })],
  ['view as', ViewAsBody, (reason) => ({ reason, minutes: 5 })],
  ['give a course', CompBody, (reason) => ({ productId: ID, reason })],
  ['ban a purchase', BanBody, (reason) => ({ reason })],
  ['add seats', AddSeatsBody, (reason) => ({ seats: 1, reason })],
  ['refund with Other', RefundBody, (reason) => ({ reasonCode: 'other', reason })],
];
const optional: [string, z.ZodType, (reason: string) => unknown][] = [
  ['hide a comment', HideBody, (reason) => ({ reason })],
  ['revoke a certificate', RevokeBody, (reason) => ({ reason })],
];

const accepts = (schema: z.ZodType, body: unknown) => schema.safeParse(body).success;

describe('a staff reason', () => {
  it.each(required)('to %s: at least the minimum once trimmed, at most the maximum', (_, schema, body) => {
    expect(accepts(schema, body(`  ${'x'.repeat(STAFF_REASON_MIN - 1)}  `))).toBe(false);
    expect(accepts(schema, body(`  ${'x'.repeat(STAFF_REASON_MIN)}  `))).toBe(true);
    expect(accepts(schema, body('x'.repeat(STAFF_REASON_MAX)))).toBe(true);
    expect(accepts(schema, body('x'.repeat(STAFF_REASON_MAX + 1)))).toBe(false);
  });

  it.each(optional)('to %s: at most the same maximum', (_, schema, body) => {
    expect(accepts(schema, body('x'.repeat(STAFF_REASON_MAX)))).toBe(true);
    expect(accepts(schema, body('x'.repeat(STAFF_REASON_MAX + 1)))).toBe(false);
  });

  it('too short says why the same way wherever it is required', () => {
    const messages = required
      .filter(([name]) => name !== 'refund with Other') // the refund's note says it is required with Other
      .map(([, schema, body]) => schema.safeParse(body('no')).error?.issues[0]?.message);
    expect(new Set(messages)).toEqual(new Set(['Say why, in a few words.']));
  });
});
