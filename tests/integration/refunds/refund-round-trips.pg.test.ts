import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { call, useServedApp } from '../../support/app.ts';
import { createPayment } from '../../support/payments.ts';

/**
 * The database round trips one PARTIAL refund costs, counted on the wire to PostgreSQL (every
 * query a pg client sends, BEGIN and COMMIT included): the refund's transactions, the sandbox
 * acquirer's ledger, authentication (kept in memory after the first request) and the request's own limits, both
 * at their production defaults (the tests' other files turn the failed-authentication limit off). The budget is deterministic,
 * so it is a test; throughput is `npm run bench`.
 */
const BUDGET = 8;
const served = useServedApp({ db: 'postgres', env: { PAYLINK_LIMIT_API_REQUESTS: '100/1', PAYLINK_LIMIT_AUTH_FAILURES: '20/900' } });

async function countQueries<T>(run: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0] as string | { text: string };
    statements.push(typeof q === 'string' ? q : q.text);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    return { result: await run(), statements };
  } finally {
    pg.Client.prototype.query = original;
  }
}

describe('refund round trips', () => {
  it(`a PARTIAL refund costs at most ${BUDGET} database round trips, the sandbox acquirer included`, async () => {
    const p = await createPayment(served.t, { amount: '100.00' });
    // Warm the process's caches the way a steady stream of requests does.
    const warm = await createPayment(served.t, { amount: '100.00' });
    await call(served.server.url, 'POST', '/api/v1/refund', { body: { transaction_id: warm.id, notify_user: false, reason: 'warm up', amount: '1.00' } });
    const { result, statements } = await countQueries(() =>
      call(served.server.url, 'POST', '/api/v1/refund', { body: { transaction_id: p.id, notify_user: false, reason: 'Partial', amount: '12.50' } }),
    );
    expect(result.json).toMatchObject({ data: { status_code: 'OK.04.00' } });
    const listed = statements.map((s, i) => `${i + 1}. ${s.replace(/\s+/g, ' ').slice(0, 100)}`).join('\n');
    expect(statements.length, listed).toBeLessThanOrEqual(BUDGET);
    // The per-integrator request limit, the payment, tx1, the sandbox, tx2: the API token was
    // read by the warm-up and is kept in memory (src/domain/integrators/token-cache.ts), and so is the
    // read that found the client's address below its failed-authentication limit (src/api/rate-limits.ts).
    expect(statements.length, listed).toBe(5);
    expect(
      statements.some((s) => s.includes('"integrators"')),
      listed,
    ).toBe(false);
    expect(statements.filter((s) => s.includes('"rate_limits"')).length, listed).toBe(1);
  });
});
