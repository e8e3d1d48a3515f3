import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import LongestFirst from './tests/support/longest-first.js';

/** What every project shares. */
const common = {
  // Browser and process tests on a busy two-core machine: a bound on hangs, not a speed target.
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // Browser screens load data after they paint; a loaded CI machine needs more than the 1 s default.
  expect: { poll: { timeout: 10_000 } },
  pool: 'forks',
} satisfies TestProjectInlineConfiguration['test'];

/**
 * Three projects. Unit and API files share their worker's modules (`isolate: false`): loading the API's modules in
 * a fresh process for each file cost more than running its tests, and these files keep no state outside the
 * database each clones (tests/support/db.ts). Browser and process tests (e2e) keep a process each. The reliability
 * suite has its own command (npm run test:reliability, vitest.reliability.config.ts).
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
      { test: { ...common, name: 'unit', include: ['tests/unit/**/*.test.ts'], isolate: false } },
      { test: { ...common, name: 'api', include: ['tests/api/**/*.test.ts'], isolate: false } },
      { test: { ...common, name: 'e2e', include: ['tests/e2e/**/*.test.ts'] } },
    ],
  },
});
