import { table } from '../db/base-model';
import type { ScenarioInput, ScenarioOutcome } from './schemas';

/** A saved pricing scenario (api/src/pricing-simulator/scenarios.ts). */
export class PricingScenario extends table('pricingScenarios', {
  jsonAttributes: ['input', 'expected', 'lastActual'],
}) {
  declare id: string;
  declare name: string;
  declare input: ScenarioInput;
  declare expected: ScenarioOutcome;
  declare lastRunAt: Date | null;
  declare lastActual: ScenarioOutcome | null;
  declare lastMatches: boolean | null;
  declare lastError: string | null;
  declare createdById: string | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}
