// `npm start`: builds when dist/ is missing or older than the sources, then runs the server
// (or, with --worker, only the background workers).
import { buildAll, isStale } from './build.mjs';

// glibc's allocator gives every thread that allocates at once an arena of its own (up to 8 per
// core) and keeps what each arena once held. Two arenas keep the resident memory after a burst of
// load near idle (docs/deploy.md, "Settings behind the figures"). glibc reads the setting only when
// a process starts, so the process replaces itself once with it set (Linux; a value already set is kept).
if (process.platform === 'linux' && process.env.MALLOC_ARENA_MAX === undefined && typeof process.execve === 'function') {
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...process.env, MALLOC_ARENA_MAX: '2' });
}

if (isStale()) {
  process.stdout.write('paylink: building (dist/ is missing or older than the sources)…\n');
  await buildAll({ quiet: true });
}
// Through the real path: this process keeps its build even if dist is switched by a later build.
const { realpathSync } = await import('node:fs');
await import(realpathSync(new URL('../dist/paylink/server.mjs', import.meta.url)));
