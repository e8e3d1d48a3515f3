import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The reliability suite (`npm run test:reliability`): concurrency at high counts, injected faults (killed
 * database connections, a restarted PostgreSQL, Stripe outages and timeouts) and property-based fuzzing.
 * Slower than the main suite, so kept out of `npm test`; CI runs both, with the same global setup.
 */
export default defineConfig({
  test: {
    include: ['tests/reliability/**/*.test.ts'],
    exclude: [...configDefaults.exclude],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: each file already runs its requests in parallel.
    maxWorkers: 3,
  },
});
