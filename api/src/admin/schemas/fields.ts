import { z } from 'zod';
import { CURRENCY_PROBLEM_MESSAGES, currencyProblem } from '../../shared/currency';

/** Field schemas shared by the console's resources. */
export const Id = z.uuid('must be an id');
export const Cents = z
  .number('must be a whole number of cents')
  .int('must be a whole number of cents')
  .min(0)
  .max(100_000_000);
/** A currency prices can be set in: amounts in it are counted the same way here and at the payment provider. */
export const Currency = z
  .string()
  .regex(/^[a-z]{3}$/, 'must be a three-letter currency code such as usd')
  .superRefine((code, ctx) => {
    const problem = currencyProblem(code);
    if (problem) ctx.addIssue({ code: 'custom', message: CURRENCY_PROBLEM_MESSAGES[problem] });
  });

const fourDecimals = (n: number) => Math.abs(Math.round(n * 10_000) - n * 10_000) < 1e-6;
/** A fraction with at most four decimals: 0.25 is 25 %. */
export const Fraction = z
  .number('must be a number between 0 and 1')
  .min(0)
  .max(1)
  .refine(fourDecimals, 'at most four decimals');
export const Discount = Fraction.refine((n) => n > 0, 'must be more than 0');

export const DateTime = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), 'must be a date and time')
  .transform((s) => new Date(s));

export const OptionalText = (max: number) => z.string().trim().max(max).nullable().optional();
export const Slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lower-case letters, digits and dashes');
