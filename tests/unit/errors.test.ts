import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toAppError } from '../../api/src/http/errors';
import { AppError, ERROR_STATUS } from '../../api/src/shared/errors';

describe('toAppError', () => {
  it('keeps an AppError and gives its status from the one table', () => {
    const error = new AppError('not-found', 'No such product.');
    expect(toAppError(error)).toBe(error);
    expect(error.status).toBe(ERROR_STATUS['not-found']);
  });

  it("turns zod issues into react-admin's field errors", () => {
    const result = z
      .object({ name: z.string().min(2), price: z.object({ amount: z.number().int() }) })
      .safeParse({ name: 'x', price: { amount: 1.5 } });
    const error = toAppError(result.error);
    expect(error?.code).toBe('validation-failed');
    expect(error?.status).toBe(400);
    expect(Object.keys(error?.fieldErrors ?? {})).toEqual(['name', 'price.amount']);
  });

  it.each([
    ['23505', 'already-exists', 409],
    ['23503', 'reference-conflict', 409],
    ['23001', 'reference-conflict', 409],
    ['23514', 'constraint-violated', 400],
    ['22P02', 'validation-failed', 400],
    ['40001', 'conflict', 409],
  ])('maps PostgreSQL error %s to %s', (code, expected, status) => {
    const raw = Object.assign(new Error('db'), { code, constraint: 'some_constraint' });
    const wrapped = Object.assign(new Error('wrapped'), { nativeError: raw });
    for (const error of [raw, wrapped]) {
      expect(toAppError(error)?.code).toBe(expected);
      expect(toAppError(error)?.status).toBe(status);
    }
  });

  it('leaves unexpected errors to the 500 path', () => {
    expect(toAppError(new TypeError('boom'))).toBeNull();
    expect(toAppError(Object.assign(new Error('conn'), { code: 'ECONNREFUSED' }))).toBeNull();
  });
});
