import { isDeepStrictEqual } from 'node:util';
import { recordAudit, type Actor } from '../audit/record';
import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import {
  SimulateQuery,
  type ScenarioInput,
  type ScenarioOutcome,
  type ScenarioRecord,
  type ScenarioRun,
} from './schemas';
import { buyerVisibleChanges } from './scenario-changes';
import type { PricingSimulator } from './simulator';

/** JSON as stored: what comes back from jsonb compares equal to what was computed. */
const asStored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * Saved pricing scenarios: a simulator query with the answer staff accepted. Re-running one prices it again with
 * today's catalog and flags an answer in which something a buyer would see changed, saying what; accepting the new
 * answer is a deliberate, audited step. The demo's scenarios (seeds/pricing-scenarios.json) are checked in CI to the
 * letter, explanations included (tests/api/pricing-scenarios.test.ts).
 */
export function pricingScenarios({ db, clock, simulator }: { db: Db; clock: Clock; simulator: PricingSimulator }) {
  async function price(input: ScenarioInput): Promise<{ actual: ScenarioOutcome | null; error: string | null }> {
    try {
      const simulation = await simulator.simulate(await simulator.queryOf(input));
      return { actual: asStored(simulator.outcomeOf(simulation)), error: null };
    } catch (error) {
      if (error instanceof AppError) return { actual: null, error: error.message };
      throw error;
    }
  }

  async function run(scenario: Pick<ScenarioRecord, 'id' | 'name' | 'input' | 'expected'>): Promise<ScenarioRun> {
    const { actual, error } = await price(scenario.input);
    const changes = actual === null ? [] : buyerVisibleChanges(scenario.expected, actual);
    const matches = actual !== null && changes.length === 0;
    await db('pricingScenarios')
      .where({ id: scenario.id })
      .update({
        lastRunAt: clock.now(),
        lastActual: actual === null ? null : JSON.stringify(actual),
        lastMatches: matches,
        lastError: error,
      });
    return { id: scenario.id, name: scenario.name, matches, changes, expected: scenario.expected, actual, error };
  }

  const find = async (id: string): Promise<ScenarioRecord> => {
    const row = (await db('pricingScenarios').where({ id }).first()) as ScenarioRecord | undefined;
    if (!row) throw new AppError('not-found', 'No such scenario.');
    return row;
  };

  return {
    /** Saves the simulator's query under a name, with today's answer as the expected one. */
    async save(name: string, rawQuery: Record<string, string>, actor: Actor, requestId: string | null) {
      const query = SimulateQuery.parse(rawQuery);
      const input = await simulator.inputOf(query);
      const expected = asStored(simulator.outcomeOf(await simulator.simulate(query)));
      return db.transaction(async (trx) => {
        const [row] = await trx('pricingScenarios')
          .insert({
            name,
            input: JSON.stringify(input),
            expected: JSON.stringify(expected),
            lastRunAt: clock.now(),
            lastActual: JSON.stringify(expected),
            lastMatches: true,
            createdById: actor.id,
          })
          .onConflict('name')
          .ignore()
          .returning('*');
        if (!row)
          throw new AppError('already-exists', 'A scenario already has that name.', { name: 'is already used' });
        await recordAudit(trx, {
          actor,
          action: 'create',
          resource: 'pricing-scenarios',
          recordId: row.id,
          after: row,
          requestId,
        });
        return row as ScenarioRecord;
      });
    },

    run: async (id: string) => run(await find(id)),

    /** Every scenario, oldest first: what changed is in `changed`. */
    async runAll(): Promise<{ ran: number; changed: ScenarioRun[] }> {
      const scenarios = (await db('pricingScenarios').orderBy('createdAt')) as ScenarioRecord[];
      const runs: ScenarioRun[] = [];
      for (const scenario of scenarios) runs.push(await run(scenario));
      return { ran: runs.length, changed: runs.filter((r) => !r.matches) };
    },

    /** The latest answer becomes the expected one (after a deliberate price change). */
    async accept(id: string, actor: Actor, requestId: string | null): Promise<ScenarioRecord> {
      return db.transaction(async (trx) => {
        const before = (await trx('pricingScenarios').where({ id }).forUpdate().first()) as ScenarioRecord | undefined;
        if (!before) throw new AppError('not-found', 'No such scenario.');
        if (!before.lastActual)
          throw new AppError('scenario-not-run', 'Run the scenario first: there is no answer to accept.');
        const [after] = await trx('pricingScenarios')
          .where({ id })
          .update({ expected: JSON.stringify(before.lastActual), lastMatches: true })
          .returning('*');
        await recordAudit(trx, {
          actor,
          action: 'pricing-scenario.accepted',
          resource: 'pricing-scenarios',
          recordId: id,
          before: { expected: before.expected },
          after: { expected: after.expected },
          requestId,
        });
        return after as ScenarioRecord;
      });
    },

    /** Checks scenarios given as data (the demo's file) against the database as it is: nothing is stored. */
    async check(scenarios: { name: string; input: ScenarioInput; expected: ScenarioOutcome }[]) {
      const results: { name: string; matches: boolean; actual: ScenarioOutcome | null; error: string | null }[] = [];
      for (const scenario of scenarios) {
        const { actual, error } = await price(scenario.input);
        results.push({
          name: scenario.name,
          matches: isDeepStrictEqual(actual, asStored(scenario.expected)),
          actual,
          error,
        });
      }
      return results;
    },
  };
}

export type PricingScenarios = ReturnType<typeof pricingScenarios>;
