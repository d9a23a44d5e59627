// A lockfile `npm ci` accepts on a clean clone: every optional dependency a locked package
// declares (platform binaries) must be locked too. `npm install` leaves them out, silently, when
// the registry lacks one platform's build, and `npm ci` then refuses the whole lockfile.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const lockPath = fileURLToPath(new URL('../package-lock.json', import.meta.url));
const { packages } = JSON.parse(readFileSync(lockPath, 'utf8'));

/** Where Node would find `dep` from the package at `path` (its own node_modules, then each parent's). */
function resolves(path, dep) {
  let base = path;
  for (;;) {
    if (`${base ? `${base}/` : ''}node_modules/${dep}` in packages) return true;
    if (!base) return false;
    const at = base.lastIndexOf('/node_modules/');
    base = at >= 0 ? base.slice(0, at) : '';
  }
}

const missing = [];
for (const [path, info] of Object.entries(packages)) {
  for (const dep of Object.keys(info.optionalDependencies ?? {})) if (!resolves(path, dep)) missing.push(`${path} → ${dep}`);
}
if (missing.length > 0) {
  console.error(`package-lock.json: ${missing.length} optional dependencies are not locked, so \`npm ci\` fails on a clean clone:`);
  for (const line of missing.slice(0, 20)) console.error(`  package-lock.json: ${line}`);
  console.error('Pick a version of the package whose every platform build is on the registry (npm view <pkg>@<version> optionalDependencies).');
  process.exit(1);
}
console.log('package-lock.json: every optional dependency is locked');
