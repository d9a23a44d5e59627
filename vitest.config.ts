import { defineConfig } from 'vitest/config';

/**
 * unit: pure rules. integration-pglite: services and HTTP against embedded PGlite (every file
 * starts from a migrated template, in memory). integration-postgres: the same files against
 * PostgreSQL, when DATABASE_URL is set (each file gets its own database from a template).
 */
const integration = (db: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `integration-${db}`,
    include: ['tests/integration/**/*.test.ts'],
    // *.pg.test.ts need a database several processes share: PostgreSQL only. *.pglite.test.ts are
    // about the embedded database itself: PGlite only.
    exclude: db === 'pglite' ? ['tests/integration/**/*.pg.test.ts'] : ['tests/integration/**/*.pglite.test.ts'],
    env: { PAYLINK_TEST_DB: db },
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

export default defineConfig({
  test: {
    pool: 'forks',
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
      // Whole paylink processes (dist/paylink/server.mjs): start, lock, shutdown, config errors.
      {
        extends: true,
        test: {
          name: 'process',
          include: ['tests/process/**/*.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      integration('pglite'),
      ...(process.env.DATABASE_URL ? [integration('postgres')] : []),
      // `npm run test:live`: the connector journeys against providers' real test modes (tests/live; network).
      ...(process.env.PAYLINK_LIVE ? [{ extends: true as const, test: { name: 'live', include: ['tests/live/**/*.test.ts'], testTimeout: 120_000 } }] : []),
      ...(process.env.PAYLINK_BENCH
        ? [
            {
              extends: true as const,
              test: {
                name: 'bench',
                include: ['bench/**/*.bench.ts'],
                globalSetup: ['tests/support/global-setup.ts'],
                env: { PAYLINK_TEST_DB: 'pglite' },
                testTimeout: 600_000,
                hookTimeout: 300_000,
                fileParallelism: false,
              },
            },
          ]
        : []),
    ],
  },
});
