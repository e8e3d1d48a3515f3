/**
 * `npm run test:model -- --runs 2000 [--steps 40] [--seed N --path P]`: the model-based commerce test
 * (tests/reliability/commerce-model.test.ts) with more sequences than CI runs, or replaying a failure by the seed
 * and path it printed.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { runs: { type: 'string' }, steps: { type: 'string' }, seed: { type: 'string' }, path: { type: 'string' } },
});
const env: NodeJS.ProcessEnv = { ...process.env };
if (values.runs) env.MODEL_RUNS = values.runs;
if (values.steps) env.MODEL_STEPS = values.steps;
if (values.seed) env.MODEL_SEED = values.seed;
if (values.path) env.MODEL_PATH = values.path;
const result = spawnSync(
  'npx',
  ['vitest', 'run', '--project', 'reliability', 'tests/reliability/commerce-model.test.ts'],
  {
    stdio: 'inherit',
    env,
  },
);
process.exit(result.status ?? 1);
