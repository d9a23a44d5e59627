// `npm start`: builds when dist/ is missing or older than the sources, then runs the server
// (or, with --worker, only the background workers).
import { buildAll, isStale } from './build.mjs';

if (isStale()) {
  process.stdout.write('paylink: building (dist/ is missing or older than the sources)…\n');
  await buildAll({ quiet: true });
}
await import('../dist/paylink/server.mjs');
