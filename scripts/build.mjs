// Builds the Astro site (dist/server, dist/client) and the process entry (dist/paylink/server.mjs).
// `--if-stale` skips the build when dist/ is newer than every source file.
// Each build goes to its own folder under .tmp/builds/ and `dist` is switched to it atomically (a
// symlink), so a server or test that is running keeps reading the build it started with.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist', 'paylink', '.built');
const sources = ['src', 'public', 'drizzle', 'astro.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function isStale() {
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return sources.some((s) => newestMtime(join(root, s)) > built);
}

/** One build at a time on a machine: concurrent test runs would empty dist/ under each other. */
async function withBuildLock(fn) {
  const lock = join(root, 'dist.lock');
  for (let _waited = 0; ; _waited += 200) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const age = Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (age > 180_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export async function buildAll(options = {}) {
  return withBuildLock(async () => {
    // Someone else may have built while we waited.
    if (options.ifStale && !isStale()) return;
    await buildUnlocked(options);
  });
}

async function buildUnlocked({ quiet = false } = {}) {
  const builds = join(root, '.tmp', 'builds');
  const out = join(builds, `${Date.now().toString(36)}-${process.pid}`);
  mkdirSync(out, { recursive: true });
  const astro = spawnSync(process.execPath, [join(root, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build', ...(quiet ? ['--silent'] : [])], {
    cwd: root,
    stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
    // Always a production build: under vitest NODE_ENV=test would compile islands' JSX in dev mode (bigger, with source paths).
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', PAYLINK_BUILD_OUT: out, NODE_ENV: 'production' },
  });
  if (astro.status !== 0) throw new Error('astro build failed');
  await build({
    entryPoints: { server: join(root, 'src', 'server.ts') },
    outdir: join(out, 'paylink'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: true,
    logLevel: quiet ? 'error' : 'warning',
  });
  // The migrations travel with the build: dist/paylink/server.mjs applies dist/drizzle.
  cpSync(join(root, 'drizzle'), join(out, 'drizzle'), { recursive: true });
  cpSync(await pgliteTemplate(), join(out, 'paylink', 'pglite-template.tar.gz'));
  writeFileSync(join(out, 'paylink', '.built'), `${new Date().toISOString()}\n`);
  // Switch dist to the new build in one rename, then prune builds older than 30 minutes.
  const link = join(root, `dist.${process.pid}.tmp`);
  rmSync(link, { force: true });
  symlinkSync(out, link);
  const dist = join(root, 'dist');
  if (existsSync(dist) && !lstatSync(dist).isSymbolicLink()) rmSync(dist, { recursive: true, force: true });
  renameSync(link, dist);
  for (const entry of readdirSync(builds)) {
    const path = join(builds, entry);
    if (path !== out && Date.now() - statSync(path).mtimeMs > 30 * 60_000) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * The initialised PGlite data directory a first start unpacks instead of running initdb
 * (src/db/pglite.ts). It depends only on the PGlite version, so it is made once per version.
 */
async function pgliteTemplate() {
  const { version } = JSON.parse(readFileSync(join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8'));
  const path = join(root, '.tmp', `pglite-template-${version}.tar.gz`);
  if (!existsSync(path)) {
    const partial = `${path}.${process.pid}`;
    // In a process of its own: initdb takes hundreds of MB, which `npm start` (that builds when
    // dist/ is stale, then serves from the same process) should not keep.
    const made = spawnSync(process.execPath, [join(root, 'scripts', 'pglite-template.ts'), partial], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    if (made.status !== 0) throw new Error('preparing the PGlite template failed');
    renameSync(partial, path);
  }
  return path;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const ifStale = process.argv.includes('--if-stale');
  if (!ifStale || isStale()) await buildAll({ ifStale });
}
