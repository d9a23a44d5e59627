import { defineConfig } from 'vitest/config';

/**
 * The suite Stryker runs for each mutant (stryker.config.mjs): unit tests and the integration
 * tests on PostgreSQL (PGlite runs one transaction at a time, so a mutant that drops a row lock
 * would survive there). Not the fuzz test (minutes of random input per run) or the tests that
 * start dist/paylink/server.mjs as another process (out of Stryker's reach).
 * PAYLINK_MUTATION_TESTS=unit runs only the unit tests: the quick pass for the pure modules
 * (money, recurrence, jwt, signing, ssrf, refund rules), see docs/testing.md.
 */
const unitOnly = process.env.PAYLINK_MUTATION_TESTS === 'unit';

export default defineConfig({
  test: {
    pool: 'forks',
    // After Stryker's own setup: what a file reaches in its hooks counts for its tests, not as static.
    setupFiles: ['tests/support/mutation-coverage.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], exclude: ['tests/unit/architecture.test.ts'] } },
      ...(unitOnly
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: 'integration-postgres',
                include: ['tests/integration/**/*.test.ts'],
                exclude: [
                  'tests/integration/api/fuzz.test.ts',
                  'tests/integration/schedules/scheduler-processes.test.ts',
                  'tests/integration/schedules/scheduler-workers.pg.test.ts',
                  'tests/integration/notifications/callbacks-resume.test.ts',
                ],
                env: { PAYLINK_TEST_DB: 'postgres' },
                globalSetup: ['tests/support/global-setup.ts'],
                testTimeout: 60_000,
                hookTimeout: 120_000,
              },
            },
          ]),
    ],
  },
});
