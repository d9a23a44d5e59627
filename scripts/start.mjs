// `npm start`: builds when dist/ is missing or older than the sources, then runs the server
// (or, with --worker, only the background workers).
import { buildAll, isStale } from './build.mjs';

if (isStale()) {
  process.stdout.write('paylink: building (dist/ is missing or older than the sources)…\n');
  await buildAll({ quiet: true });
}
// Through the real path: this process keeps its build even if dist is switched by a later build.
const { realpathSync } = await import('node:fs');
await import(realpathSync(new URL('../dist/paylink/server.mjs', import.meta.url)));
