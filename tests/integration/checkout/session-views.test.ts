import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions } from '../../../src/db/schema.ts';
import { findSessionByToken, loadCheckout } from '../../../src/domain/checkout/sessions.ts';
import { call, createTestApp, provision, startTestServer, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';

/**
 * The checkout page's sessions kept in memory (src/domain/checkout/session-cache.ts): on PGlite a
 * view is served from memory until any session changes; on PostgreSQL every view reads the row.
 */
let t: TestApp;
let server: { url: string; close(): Promise<void> };

beforeAll(async () => {
  t = await createTestApp();
  await provision(t);
  server = await startTestServer(t.app);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

async function newSession(description: string) {
  const res = await call(server.url, 'POST', '/pay/acme-books', { token: null, body: { key: TEST_TOKEN, payment: { amount: '25.00', description } } });
  expect(res.status, res.text).toBe(200);
  return new URL(res.json.link).pathname.split('/')[2]!;
}

const page = async (token: string) => {
  const res = await fetch(`${server.url}/checkout/${token}`);
  return { status: res.status, html: await res.text() };
};

describe('checkout sessions kept for the checkout page', () => {
  it('a customer who pays and reloads sees the receipt at once, never the form again', async () => {
    const token = await newSession('Kept then paid');
    for (let i = 0; i < 3; i++) expect((await page(token)).html).toContain('<form');
    const paid = await call(server.url, 'POST', `/checkout/${token}/pay`, {
      token: null,
      body: {
        fields: { 'customer.first_name': 'Ana', 'customer.last_name': 'Reyes', 'customer.contact.email': 'ana@example.com' },
        card: { number: '4242424242424242', expiry: CARD_EXPIRY, cvc: '123', name: 'Ana Reyes' },
      },
    });
    expect(paid.json.data.status_code, paid.text).toBe('OK.03.00');
    const view = await loadCheckout(t.app, token);
    expect(view.state).toBe('paid');
    expect(view.state === 'paid' && view.payment.id).toBe(paid.json.data.transaction_id);
    const reload = await page(token);
    expect(reload.status).toBe(200);
    expect(reload.html).toContain(paid.json.data.transaction_id);
    expect(reload.html).not.toContain('<form');
  });

  it('serves a view from memory on PGlite only, and forgets it when any session changes', async () => {
    const token = await newSession('Before');
    const id = (await findSessionByToken(t.app.db, token))!.id;
    const description = async () => {
      const view = await loadCheckout(t.app, token);
      return view.state === 'open' ? view.session.description : view.state;
    };
    expect(await description()).toBe('Before');
    // A change the process is not told about (the trigger off): PGlite still shows what it keeps.
    await t.app.db.execute(sql`ALTER TABLE checkout_sessions DISABLE TRIGGER checkout_sessions_notify`);
    try {
      await t.app.db.update(checkoutSessions).set({ description: 'Unannounced' }).where(eq(checkoutSessions.id, id));
    } finally {
      await t.app.db.execute(sql`ALTER TABLE checkout_sessions ENABLE TRIGGER checkout_sessions_notify`);
    }
    expect(await description()).toBe(t.app.database.kind === 'pglite' ? 'Before' : 'Unannounced');
    // Any announced change (here another session's) empties the memory before the writer goes on.
    const other = await newSession('Other');
    await t.app.db
      .update(checkoutSessions)
      .set({ description: 'Other, edited' })
      .where(eq(checkoutSessions.id, (await findSessionByToken(t.app.db, other))!.id));
    expect(await description()).toBe('Unannounced');
  });

  it('keeps nothing for tokens that name no session', async () => {
    const missing = 'A'.repeat(43);
    expect(await loadCheckout(t.app, missing)).toEqual({ state: 'not_found' });
    expect((await page(missing)).status).toBe(404);
  });
});
