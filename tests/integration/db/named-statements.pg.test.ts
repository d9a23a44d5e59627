import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareStatement, rowsOf } from '../../../src/db/statements.ts';
import { findIntegratorByToken } from '../../../src/domain/integrators/service.ts';
import { refundPayment } from '../../../src/domain/refunds/service.ts';
import { createTestApp, provision, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { createPayment } from '../../support/payments.ts';

/**
 * prepareStatement (src/db/statements.ts): a refund's single-statement writes run as prepared statements
 * named after their text, so PostgreSQL parses and plans each once per connection. One connection
 * here, so the statements this test prepares are the ones it then finds.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ db: 'postgres', env: { DATABASE_POOL_SIZE: '1' } });
});
afterAll(() => t?.close());

const prepared = async () =>
  rowsOf<{ name: string; statement: string }>(await t.app.db.execute(sql`select name, statement from pg_prepared_statements order by name`));

describe('statements run by name on PostgreSQL', () => {
  it('prepares a text once per connection under one name, a different text under another, and returns the rows', async () => {
    const first = prepareStatement((p) => sql`select ${p('n')}::int as n, 'named-test-one' as which`);
    const one = (n: number) => first.execute(t.app.db, { n });
    const two = prepareStatement((p) => sql`select ${p('s')}::text as s, 'named-test-two' as which`).execute(t.app.db, { s: 'x' });
    expect(rowsOf(await one(1))).toEqual([{ n: 1, which: 'named-test-one' }]);
    expect(rowsOf(await one(2))).toEqual([{ n: 2, which: 'named-test-one' }]);
    expect(rowsOf(await two)).toEqual([{ s: 'x', which: 'named-test-two' }]);
    const ours = (await prepared()).filter((p) => p.statement.includes('named-test'));
    expect(ours).toHaveLength(2);
    expect(ours.every((p) => p.name.startsWith('paylink_s'))).toBe(true);
    expect(new Set(ours.map((p) => p.name)).size).toBe(2);
  });

  it('names a refund’s writes: after a refund its tx1 and tx2 are prepared on the connection', async () => {
    const before = (await prepared()).length;
    await provision(t);
    const payment = await createPayment(t, { amount: '100.00', callbackUrl: null });
    const integrator = (await findIntegratorByToken(t.app.db, TEST_TOKEN))!;
    const outcome = await refundPayment(t.app, integrator, { transactionId: payment.id, amount: '1.00', reason: 'test', notifyUser: false });
    expect(outcome.refund.status).toBe('succeeded');
    const statements = (await prepared()).map((p) => p.statement);
    expect(statements.length).toBeGreaterThanOrEqual(before + 2);
    expect(statements.some((s) => /^with p as \(\s*update "payments"[\s\S]*insert into "refunds"/.test(s))).toBe(true);
    expect(statements.some((s) => /update "refunds"[\s\S]*insert into "outbox_events"/.test(s))).toBe(true);
  });

  it('runs texts beyond the first 200 unnamed, so statements made per request cannot pile up on a connection', async () => {
    const numbered = (i: number) => prepareStatement((p) => sql`select ${p('i')}::int + ${sql.raw(String(i))} as n, 'named-test-many' as which`);
    for (let i = 0; i < 210; i++) await numbered(i).execute(t.app.db, { i: 0 });
    const many = (await prepared()).filter((p) => p.statement.includes('named-test-many'));
    // 200 names in all, a few of them taken by the tests above.
    expect(many.length).toBeGreaterThan(190);
    expect(many.length).toBeLessThan(200);
    expect(rowsOf(await numbered(209).execute(t.app.db, { i: 0 }))).toEqual([{ n: 209, which: 'named-test-many' }]);
  });
});
