import { z } from 'zod';
import { QuoteQuery } from '../commerce/schemas';
import type { QuotePreview } from '../commerce/schemas';
import type { PlannedRelease } from '../learning/drip/release';

/**
 * GET /api/admin/pricing/simulate: the storefront's quote query (product, country, ppp, coupon, quantity, team,
 * upgradeFrom) plus the product and, optionally, the customer it is priced for.
 */
export const SimulateQuery = QuoteQuery.extend({
  productId: z.uuid('must be a product id'),
  userId: z.uuid('must be a user id').optional(),
}).refine((q) => !q.upgradeFrom || q.userId, {
  message: 'an upgrade needs the customer who owns the purchase',
  path: ['upgradeFrom'],
});
export type SimulateQuery = z.output<typeof SimulateQuery>;

/**
 * GET /api/admin/pricing/recurring: the product whose membership prices or payment plan are shown, priced for the
 * simulator's country, regional price, coupon and customer as the one-time quote is.
 */
export const RecurringQuery = QuoteQuery.pick({ coupon: true, country: true, ppp: true }).extend({
  productId: z.uuid('must be a product id'),
  userId: z.uuid('must be a user id').optional(),
});
export type RecurringQuery = z.output<typeof RecurringQuery>;

/** What the purchase would grant once paid. */
export interface SimulatedGrant {
  /** The courses the product opens. */
  courses: { id: string; title: string }[];
  /**
   * `full`: access at once; `restricted`: only from `restrictedTo` (the regional price); `seats`: a team whose buyer
   * takes a seat like anyone else; `free`: redeemed without a payment.
   */
  access: 'full' | 'restricted' | 'seats';
  free: boolean;
  seats: number | null;
  restrictedTo: string | null;
  /** The purchase whose credit the upgrade spends (it can then be upgraded no more, nor given away). */
  spends: string | null;
}

/** The simulator's answer: exactly the storefront's quote for that customer, and what it would grant. */
export interface Simulation {
  quote: QuotePreview;
  grants: SimulatedGrant;
  customer: { id: string; email: string } | null;
  /** What its courses release later for a purchase made now, soonest first (docs/domain.md §11). */
  releases?: PlannedRelease[];
}

// ─── Saved scenarios ─────────────────────────────────────────────────────────────────────────────────────────────

/**
 * A scenario names what it prices by stable handles (a product's key, a customer's email, the product of the
 * purchase an upgrade spends), so one saved on any database replays on another with the same catalog, such as the
 * demo data in CI (seeds/pricing-scenarios.json).
 */
export const ScenarioInput = z.strictObject({
  productKey: z.string().min(1).max(200),
  customerEmail: z.email().nullable().default(null),
  upgradeFromProductKey: z.string().min(1).max(200).nullable().default(null),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .nullable()
    .default(null),
  ppp: z.boolean().default(false),
  coupon: z.string().min(1).max(64).nullable().default(null),
  quantity: z.number().int().min(1).max(100).default(1),
  team: z.boolean().default(false),
});
export type ScenarioInput = z.output<typeof ScenarioInput>;

/** The part of a quote a scenario expects: prices, the discount and why others did not apply, the coupon's fate. */
export interface ScenarioOutcome {
  currency: string;
  quote: QuotePreview['quote'];
  couponProblem: string | null;
  teamSeats: number | null;
  upgradeCredit: number | null;
}

/** POST /api/admin/pricing-scenarios: the simulator's query as the console sends it, and a name. */
export const SaveScenarioBody = z.strictObject({
  name: z.string().trim().min(1, 'Give the scenario a name.').max(200),
  query: z.record(z.string(), z.string()),
});

export interface ScenarioRecord {
  id: string;
  name: string;
  input: ScenarioInput;
  expected: ScenarioOutcome;
  lastRunAt: Date | null;
  lastActual: ScenarioOutcome | null;
  /** Null until run; false when the answer changed from the expected one. */
  lastMatches: boolean | null;
  lastError: string | null;
  createdById: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Something a buyer would see differ between the expected answer and the latest one, in words. */
export interface ScenarioChange {
  what: string; // "Total"
  from: string; // "$1,791.00"
  to: string; // "$2,241.00"
}

/** A saved scenario as the console lists it: with what changed for a buyer in its latest answer (none: the same). */
export interface ListedScenario extends ScenarioRecord {
  changes: ScenarioChange[];
}

/** A run of one scenario: it matches when nothing a buyer would see changed. */
export interface ScenarioRun {
  id: string;
  name: string;
  matches: boolean;
  changes: ScenarioChange[];
  expected: ScenarioOutcome;
  actual: ScenarioOutcome | null;
  /** Why it could not be priced at all (the product left the catalog, the customer is gone…). */
  error: string | null;
}
