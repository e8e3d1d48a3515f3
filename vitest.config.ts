import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import LongestFirst from './tests/support/longest-first.js';

/** What every project shares. */
const common = {
  // Browser and process tests on a busy two-core machine: a bound on hangs, not a speed target.
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // Browser screens load data after they paint; a loaded CI machine needs more than the 1 s default.
  expect: { poll: { timeout: 10_000 } },
  pool: 'forks',
  // Files share their worker's modules: loading the API's modules in a fresh process for each file cost more than
  // running many files' tests (for browser files, 40 % of their CPU time). Each file keeps no state outside the
  // database it clones (tests/support/db.ts) and closes the servers and browser it started.
  isolate: false,
} satisfies TestProjectInlineConfiguration['test'];

/**
 * Four projects, one run: `npm test` is every test, and the long reliability files fill the workers while the short
 * ones wait. `npm run test:reliability` runs that project alone: concurrency at high counts, injected faults
 * (killed database connections, a restarted PostgreSQL, Stripe outages and timeouts) and property-based fuzzing.
 */
export default defineConfig({
  test: {
    // The root's global setup runs once; every project gets what it provides (the template database).
    globalSetup: ['tests/support/global-setup.ts'],
    // Two cores: more workers only queue on the database and the browser.
    maxWorkers: 3,
    // The longest files first, from the durations a run recorded (tests/durations.json).
    sequence: { sequencer: LongestFirst },
    projects: [
      { test: { ...common, name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
      { test: { ...common, name: 'api', include: ['tests/api/**/*.test.ts'] } },
      { test: { ...common, name: 'e2e', include: ['tests/e2e/**/*.test.ts'] } },
      {
        test: {
          ...common,
          name: 'reliability',
          include: ['tests/reliability/**/*.test.ts'],
          exclude: [...configDefaults.exclude],
          testTimeout: 180_000,
          // Few files, each starting its own servers, replicas and PostgreSQL: a fresh process each.
          isolate: true,
        },
      },
    ],
  },
});
