// `node bench/log-line.ts`: what one request log line costs (src/log.ts), in process. By default
// the line goes to a sink that drops it, so the figure is the logger's own work (redaction, JSON);
// `node bench/log-line.ts stdout > /dev/null` writes to stdout as the server does (figures on
// stderr). Not part of `npm run bench`; the figures are in docs/deploy.md, "Logs".
import { createLogger } from '../src/log.ts';

const toStdout = process.argv[2] === 'stdout';
const lines = Number(process.env.LINES ?? 200_000);
const log = toStdout ? createLogger('info') : createLogger('info', () => {});
const requestLine = (i: number) =>
  log.info('request', {
    method: 'POST',
    route: '/api/v1/payments/:id/refunds',
    status: 201,
    duration_ms: 12.3,
    request_id: `req_${i.toString(16).padStart(16, '0')}`,
    integrator_id: 'int_0123456789abcdef',
  });

for (let i = 0; i < 20_000; i++) requestLine(i); // warm-up
for (const round of [1, 2, 3]) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < lines; i++) requestLine(i);
  await (log as { flush?: () => Promise<void> }).flush?.();
  const ns = Number(process.hrtime.bigint() - start) / lines;
  process.stderr.write(`round ${round}: ${ns.toFixed(0)} ns per request line (${(1e9 / ns / 1000).toFixed(0)}k lines/s)\n`);
}
