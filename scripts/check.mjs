// `npm run check`: every engineering gate, in the order that fails fastest. Each tool prints the
// file and line of what it found; this script names the gate that failed and exits non-zero.
// Run one alone with `npm run lint`, `npm run typecheck`, `npm run typecheck:astro`, `npm run knip`.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);

export const gates = [
  { name: 'lockfile installs on a clean clone', cmd: process.execPath, args: [join(root, 'scripts', 'check-lockfile.mjs')] },
  { name: 'lint and format (biome)', cmd: bin('biome'), args: ['check', '--error-on-warnings', '--max-diagnostics=200', '.'], fix: 'npm run format' },
  { name: 'types (tsc)', cmd: bin('tsc'), args: ['--noEmit', '-p', '.', '--pretty', 'false'] },
  { name: 'types in .astro files (astro check)', cmd: bin('astro'), args: ['check', '--minimumFailingSeverity', 'error'] },
  { name: 'unused files, exports and dependencies (knip)', cmd: bin('knip'), args: ['--no-progress'] },
];

export function runGates({ only } = {}) {
  const failed = [];
  for (const gate of gates) {
    if (only && !only.includes(gate.name)) continue;
    process.stdout.write(`\ncheck: ${gate.name}\n`);
    const result = spawnSync(gate.cmd, gate.args, { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) failed.push(gate);
  }
  for (const gate of failed) console.error(`check FAILED: ${gate.name}${gate.fix ? ` (to fix formatting and safe lint issues: ${gate.fix})` : ''}`);
  return failed.length === 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(runGates() ? 0 : 1);
