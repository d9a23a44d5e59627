// `npm test`: the engineering gates (scripts/check.mjs: biome, tsc, astro check, knip), then vitest (unit + integration on PGlite, and on PostgreSQL when DATABASE_URL is set),
// then the Playwright end-to-end suite in Debian's Chromium against the built server, on PGlite
// and again on PostgreSQL when DATABASE_URL is set.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogue } from '../src/status-codes.ts';
import { buildAll, isStale } from './build.mjs';
import { runGates } from './check.mjs';
import { compareWithCatalogue } from './status-codes-seen.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (cmd, args, env = {}) => {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
};

if (isStale()) {
  process.stdout.write('building dist/ for the HTTP and end-to-end tests…\n');
  await buildAll({ quiet: true });
}

const failures = [];
// The gates print each finding with its file and line; a failure fails the run at the end.
if (!runGates()) failures.push('check (see "check FAILED" above)');
const totals = { passed: 0, failed: 0 };
/** Each failed test's file and name, printed again at the very end: CI logs are often read from their tail. */
const failedTests = [];
const firstLine = (text) =>
  String(text ?? '')
    .split('\n')[0]
    .slice(0, 200);
const results = join(root, '.tmp', 'test-results');
mkdirSync(results, { recursive: true });
/** Adds a JSON report's counts (vitest and Playwright both write one) to the totals. */
function count(file) {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    if ('numPassedTests' in report) {
      totals.passed += report.numPassedTests;
      totals.failed += report.numFailedTests;
      for (const entry of report.testResults ?? []) {
        const failed = (entry.assertionResults ?? []).filter((test) => test.status === 'failed');
        for (const test of failed) failedTests.push(`${relative(root, entry.name)} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
        // A file that failed to load has no failed test of its own.
        if (failed.length === 0 && entry.status === 'failed') failedTests.push(`${relative(root, entry.name)} (the file failed: ${firstLine(entry.message)})`);
      }
    } else if (report.stats) {
      totals.passed += report.stats.expected + report.stats.flaky;
      totals.failed += report.stats.unexpected;
      const walk = (suite, titles) => {
        for (const spec of suite.specs ?? [])
          for (const test of spec.tests ?? [])
            if (test.status === 'unexpected') failedTests.push(`${suite.file ?? spec.file} › ${[...titles, spec.title].join(' › ')}`);
        for (const child of suite.suites ?? []) walk(child, child.title && !child.title.endsWith('.ts') ? [...titles, child.title] : titles);
      };
      for (const suite of report.suites ?? []) walk(suite, []);
    }
  } catch {
    totals.failed += 1; // no report: the runner itself failed
    failedTests.push(`${relative(root, file)}: no report (the runner itself failed)`);
  }
}

const vitestReport = join(results, 'vitest.json');
// Every status code a test saw in an envelope (tests/support/status-codes-seen.ts), one file per test process.
const codesSeen = join(root, '.tmp', 'status-codes-seen');
rmSync(codesSeen, { recursive: true, force: true });
const vitestArgs = process.argv.slice(2);
if (
  run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`, ...vitestArgs], {
    PAYLINK_STATUS_CODES_SEEN: codesSeen,
  }) !== 0
)
  failures.push('vitest');
count(vitestReport);
// A code in the catalogue (docs/status-codes.md) that no test produced is a rule nobody checks, or one nothing returns.
if (vitestArgs.length === 0) {
  const { seen, unseen, unknown } = compareWithCatalogue(codesSeen, Object.keys(catalogue));
  if (unseen.length > 0) {
    console.error(`\nstatus codes in the catalogue that no test produced: ${unseen.join(', ')}`);
    failures.push('status-code catalogue');
  }
  if (unknown.length > 0) {
    console.error(`\nstatus codes tests saw that the catalogue does not list: ${unknown.join(', ')}`);
    failures.push('status-code catalogue');
  }
  if (unseen.length === 0 && unknown.length === 0) console.log(`\nstatus codes: each of the ${seen.size} catalogue codes was produced by a test`);
}

const chromium = process.env.PAYLINK_CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(`\nEnd-to-end tests need Chromium at ${chromium} (Debian: apt-get install -y chromium). They were not run.`);
  failures.push('e2e (no chromium)');
} else {
  const e2e = (db, label) => {
    const report = join(results, `e2e-${db}.json`);
    if (run(bin('playwright'), ['test', '--reporter=list,json'], { PAYLINK_E2E_DB: db, PLAYWRIGHT_JSON_OUTPUT_NAME: report }) !== 0) failures.push(label);
    count(report);
  };
  e2e('pglite', 'e2e on PGlite');
  if (process.env.DATABASE_URL) e2e('postgres', 'e2e on PostgreSQL');
}

console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed`);
for (const test of failedTests) console.log(`  failed: ${test}`);
// PGlite runs one transaction at a time: the concurrency tests prove their locks only on PostgreSQL.
if (!process.env.DATABASE_URL)
  console.log(
    'PostgreSQL projects NOT run (no DATABASE_URL): integration-postgres, *.pg.test.ts and e2e on PostgreSQL were skipped; this is not the full run.',
  );
if (failures.length > 0) {
  console.error(`FAILED: ${failures.join(', ')}`);
  process.exit(1);
}
console.log('All test suites passed.');
