// `npm test`: vitest (unit + integration on PGlite, and on PostgreSQL when DATABASE_URL is set),
// then the Playwright end-to-end suite in Debian's Chromium against the built server, on PGlite
// and again on PostgreSQL when DATABASE_URL is set.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll, isStale } from './build.mjs';

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
if (run(bin('vitest'), ['run', ...process.argv.slice(2)]) !== 0) failures.push('vitest');

const chromium = process.env.PAYLINK_CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(`\nEnd-to-end tests need Chromium at ${chromium} (Debian: apt-get install -y chromium). They were not run.`);
  failures.push('e2e (no chromium)');
} else {
  if (run(bin('playwright'), ['test'], { PAYLINK_E2E_DB: 'pglite' }) !== 0) failures.push('e2e on PGlite');
  if (process.env.DATABASE_URL && run(bin('playwright'), ['test'], { PAYLINK_E2E_DB: 'postgres' }) !== 0) failures.push('e2e on PostgreSQL');
}

if (failures.length > 0) {
  console.error(`\nFAILED: ${failures.join(', ')}`);
  process.exit(1);
}
console.log('\nAll test suites passed.');
