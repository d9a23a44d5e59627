import { Pool } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { CONSOLE_USERS } from '../tests/support/app.ts';
import { type ExternalServer, type Measured, measurePaced, startExternal } from './support/external.ts';
import { type BenchRow, benchDatabases as databases, percentile, recordBench, round } from './support/report.ts';

/**
 * Console sign-ins must never hold up other requests (issue #30): GET /pay/{slug}, paced at a
 * steady rate (open loop, latency from the planned moment), first on an idle server, then while
 * 200 sign-ins with wrong passwords (half for known, half for unknown addresses) are in flight
 * the whole time, each re-sent as soon as it is answered. Target: the loaded p99 within 2× the
 * idle p99. A server whose queue of password checks takes all 200
 * (PAYLINK_PASSWORD_CHECK_QUEUE=256: every attempt waits for its Argon2 check), one with the
 * default queue of 64 (the rest are refused at once with 503 and sent again at once), and, for
 * comparison, the same closed-loop flood of the no-op GET /api/v1/ping. The per-address sign-in
 * limit is off, or it would refuse all but 30 of them.
 */
const SECONDS = Number(process.env.PAYLINK_BENCH_SECONDS ?? 5);
const IN_FLIGHT = 200;
const PAY_RATE = 100;
const ROUNDS = 3;
const label = { pglite: 'PGlite', postgres: 'PostgreSQL' };
const rows: BenchRow[] = [];
afterAll(() => recordBench('Console sign-ins in flight: GET /pay/{slug} next to 200 sign-ins', rows));

const payPage = (url: string) =>
  measurePaced({
    url,
    seconds: SECONDS,
    rate: PAY_RATE,
    request: { path: '/pay/acme-books' },
    ok: (status, body) => status === 200 && body.includes('</html>'),
  });

type Sent = { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string };

/** Keeps `IN_FLIGHT` requests in flight until `stop` is called: each sent again as soon as it is answered. */
function flood(url: string, request: (i: number) => Sent) {
  const pool = new Pool(url, { connections: IN_FLIGHT, pipelining: 1 });
  const statuses = new Map<number, number>();
  const latencies: number[] = [];
  let running = true;
  let n = 0;
  const worker = async () => {
    while (running) {
      const started = performance.now();
      try {
        const res = await pool.request(request(n++));
        await res.body.dump();
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      } catch {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
      }
      latencies.push(performance.now() - started);
    }
  };
  const workers = Array.from({ length: IN_FLIGHT }, worker);
  return {
    async stop() {
      running = false;
      await Promise.all(workers);
      await pool.close();
      const answered = [...statuses].map(([status, count]) => `${count}× ${status || 'error'}`).join(', ');
      return { statuses, answered, p50: round(percentile(latencies, 50), 1), p99: round(percentile(latencies, 99), 1) };
    },
  };
}

/** Wrong passwords, half for a known address and half for unknown ones, with the page's CSRF pair. */
async function signIns(url: string) {
  const page = await fetch(`${url}/console/sign-in`);
  const cookie = page.headers
    .getSetCookie()
    .find((c) => c.startsWith('paylink_sign_in='))!
    .split(';')[0]!;
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!;
  return (i: number): Sent => ({
    method: 'POST',
    path: '/console/sign-in',
    headers: { cookie, origin: url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      _csrf: csrf,
      email: i % 2 ? CONSOLE_USERS.acmeStaff.email : `nobody.${i}@acme.example`,
      password: `guessed password ${i}`,
    }).toString(),
  });
}

describe.each(databases)('sign-ins in flight on %s', (db) => {
  const servers: ExternalServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop();
  });

  const scenarios = [
    { name: 'sign-ins, check queue 256', queue: 256, load: signIns, expected: [401] },
    { name: 'sign-ins, check queue 64', queue: 64, load: signIns, expected: [401, 503] },
    // For comparison: the same flood of the cheapest request there is.
    { name: 'GET /api/v1/ping', queue: 64, load: async () => (): Sent => ({ method: 'GET', path: '/api/v1/ping' }), expected: [200] },
  ];
  for (const scenario of scenarios) {
    it(`measures GET /pay/{slug} p99 idle and with ${IN_FLIGHT} ${scenario.name} in flight`, async () => {
      const { server } = await startExternal(
        db,
        { PAYLINK_LIMIT_SIGN_IN_FAILURES: 'off', PAYLINK_PASSWORD_CHECK_QUEUE: String(scenario.queue) },
        async () => undefined,
      );
      servers.push(server);
      const request = await scenario.load(server.url);
      // Warm up: JIT, the page's rendering kept per link version, Argon2's first checks.
      await measurePaced({ url: server.url, seconds: 1, rate: PAY_RATE, request: { path: '/pay/acme-books' } });
      const warm = flood(server.url, request);
      await new Promise((r) => setTimeout(r, 1000));
      await warm.stop();

      // Idle and loaded in turns, ROUNDS times: the machine is shared, and its load changes
      // within seconds; the medians of the rounds are compared.
      const idle: Measured[] = [];
      const loaded: Measured[] = [];
      const statuses = new Map<number, number>();
      const answers: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        idle.push(await payPage(server.url));
        const load = flood(server.url, request);
        await new Promise((r) => setTimeout(r, 500));
        loaded.push(await payPage(server.url));
        const answered = await load.stop();
        for (const [status, count] of answered.statuses) statuses.set(status, (statuses.get(status) ?? 0) + count);
        answers.push(`${answered.answered} (p50 ${answered.p50} ms)`);
      }
      const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
      const idleP99 = median(idle.map((m) => m.p99));
      const loadedP99 = median(loaded.map((m) => m.p99));
      const name = `${label[db]}; ${IN_FLIGHT} ${scenario.name}`;
      const ratio = round(loadedP99 / idleP99, 2);
      rows.push(
        {
          name: `idle (${label[db]}, next to: ${scenario.name})`,
          values: { 'p50 ms': median(idle.map((m) => m.p50)), 'p99 ms': idleP99, errors: idle.reduce((n, m) => n + m.errors, 0) },
          note: `p99 per round: ${idle.map((m) => m.p99).join(', ')} ms`,
        },
        {
          name: `loaded (${name})`,
          values: {
            'p50 ms': median(loaded.map((m) => m.p50)),
            'p99 ms': loadedP99,
            errors: loaded.reduce((n, m) => n + m.errors, 0),
            'p99 vs idle': `${ratio}×`,
            target: scenario.load === signIns ? '≤ 2×' : '',
          },
          note: `p99 per round: ${loaded.map((m) => m.p99).join(', ')} ms; answered meanwhile: ${answers.join('; ')}`,
        },
      );
      console.log(
        `[bench] ${name}: /pay p99 idle ${idle.map((m) => m.p99).join('/')} ms, loaded ${loaded.map((m) => m.p99).join('/')} ms (${ratio}×); ${answers.join('; ')}`,
      );
      expect([...idle, ...loaded].reduce((n, m) => n + m.errors, 0)).toBe(0);
      expect([...statuses.keys()].every((status) => scenario.expected.includes(status))).toBe(true);
    });
  }
});
