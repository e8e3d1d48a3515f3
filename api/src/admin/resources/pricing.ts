import { PricingScenario } from '../../pricing/models';
import { defineResource } from '../resource';
import { instant, text, yesNo } from '../../http/csv-columns';
import { person } from '../export-lookups';

/**
 * Saved pricing scenarios: listed, read and deleted here; saved, run and accepted through the simulator's endpoints
 * (api/src/pricing/routes.ts), since the API prices them itself.
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
  remove: 'hard',
});
