// `npm start`: builds when dist/ is missing or older than the sources, then runs the server
// (or, with --worker, only the background workers).
import { buildAll, isStale } from './build.mjs';

// glibc's allocator gives every thread that allocates at once an arena of its own (up to 8 per
// core) and keeps what each arena once held; and after a large block is freed it raises its own
// thresholds, so it then keeps up to 64 MB free at the top of its heap instead of returning it. Two
// arenas and fixed thresholds (128 KB and up from mmap, trim above 256 KB free) keep the resident
// memory after a burst of load near idle (docs/deploy.md, "Settings behind the figures"). glibc
// reads these only when a process starts, so the process replaces itself once with them set (Linux;
// values already set are kept).
const MALLOC_SETTINGS = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '262144' };
if (process.platform === 'linux' && process.env.MALLOC_ARENA_MAX === undefined && typeof process.execve === 'function') {
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...MALLOC_SETTINGS, ...process.env });
}

if (isStale()) {
  process.stdout.write('paylink: building (dist/ is missing or older than the sources)…\n');
  await buildAll({ quiet: true });
}
// Through the real path: this process keeps its build even if dist is switched by a later build.
const { realpathSync } = await import('node:fs');
await import(realpathSync(new URL('../dist/paylink/server.mjs', import.meta.url)));
