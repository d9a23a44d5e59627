/**
 * `npm run mutation`: Stryker mutation testing of the modules that move money or guard the
 * surface (docs/testing.md has the scores, the equivalent mutants and how to read a run).
 * Not part of `npm test`: a full run takes tens of minutes. Needs DATABASE_URL (PostgreSQL), so
 * mutants that remove a row lock can die. One module: `npm run mutation -- --mutate src/domain/money.ts`.
 */
const unitOnly = process.env.PAYLINK_MUTATION_TESTS === 'unit';

export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: [
    'src/domain/refunds/rules.ts',
    'src/domain/refunds/service.ts',
    'src/domain/refunds/reserve.ts',
    'src/domain/refunds/settle.ts',
    'src/domain/refunds/recovery.ts',
    'src/domain/checkout/pay.ts',
    'src/domain/checkout/sessions.ts',
    'src/domain/checkout/amount.ts',
    'src/domain/schedules/claim.ts',
    'src/domain/schedules/charge.ts',
    'src/domain/schedules/record.ts',
    'src/domain/schedules/tick.ts',
    'src/domain/schedules/run-now.ts',
    'src/domain/schedules/jwt.ts',
    'src/domain/schedules/recurrence.ts',
    'src/outbound/ssrf.ts',
    'src/domain/notifications/signing.ts',
    'src/domain/notifications/outbox.ts',
    'src/api/idempotency.ts',
    'src/domain/money.ts',
  ],
  // The HTTP tests serve the Astro build, which bundles src/: build it from the instrumented
  // sources in the sandbox, so a mutant is live behind the pages and API routes too.
  ...(unitOnly ? {} : { buildCommand: 'node scripts/mutation-build.mjs' }),
  symlinkNodeModules: unitOnly,
  ignorePatterns: ['dist', 'dist.lock', '.tmp', 'reports', 'test-results', 'playwright-report', 'data', '.astro', 'bench/results'],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 60_000,
  timeoutFactor: 2,
  incremental: true,
  incrementalFile: `reports/mutation/stryker-incremental${unitOnly ? '-unit' : ''}.json`,
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.tmp/stryker',
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 85, break: null },
};
