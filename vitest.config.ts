import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // The reliability suite has its own command (npm run test:reliability, vitest.reliability.config.ts).
    exclude: [...configDefaults.exclude, 'tests/reliability/**'],
    globalSetup: ['tests/support/global-setup.ts'],
    // Browser and process tests on a busy two-core machine: a bound on hangs, not a speed target.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Browser screens load data after they paint; a loaded CI machine needs more than the 1 s default.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // Two cores: more workers only queue on the database and the browser.
    maxWorkers: 3,
  },
});
