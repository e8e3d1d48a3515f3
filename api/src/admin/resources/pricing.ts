import { PricingScenario } from '../../pricing-simulator/models';
import { buyerVisibleChanges } from '../../pricing-simulator/scenario-changes';
import type { ScenarioOutcome } from '../../pricing-simulator/schemas';
import { defineResource, type Row } from '../resource';
import { instant, text, yesNo } from '../../http/csv-columns';
import { person } from '../lists/export-lookups';

/**
 * A scenario with what a buyer would see changed in its latest answer; one run before that rule was kept reads as
 * the rule says (it is stored again at its next run).
 */
function withChanges(row: Row): Row {
  if (!row.lastActual || row.lastError) return { ...row, changes: [] };
  const changes = buyerVisibleChanges(row.expected as ScenarioOutcome, row.lastActual as ScenarioOutcome);
  return { ...row, changes, lastMatches: changes.length === 0 };
}

/**
 * Saved pricing scenarios: listed, read and deleted here; saved, run and accepted through the simulator's endpoints
 * (api/src/pricing-simulator/routes.ts), since the API prices them itself.
 */
export const pricingScenarios = defineResource({
  name: 'pricing-scenarios',
  model: PricingScenario,
  read: ['support', 'finance'],
  write: ['support', 'finance'],
  filterable: { id: 'id', name: 'text', lastMatches: 'boolean', createdById: 'id', createdAt: 'date' },
  sortable: ['id', 'name', 'createdAt', 'lastRunAt'],
  searchable: ['name'],
  defaultSort: ['createdAt', 'ASC'],
  export: {
    lookups: [person('createdById', 'author')],
    columns: [
      text('Name', 'name'),
      yesNo('Last run matched', 'lastMatches'),
      instant('Last run', 'lastRunAt'),
      text('Last error', 'lastError'),
      text('Saved by', 'authorEmail'),
      instant('Created', 'createdAt'),
      text('Scenario id', 'id'),
    ],
  },
  exactCount: true,
  present: withChanges,
  remove: 'hard',
});
