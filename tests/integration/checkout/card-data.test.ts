import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxVault } from '../../../src/db/schema.ts';
import { findIntegratorByToken } from '../../../src/domain/integrators/service.ts';
import { recordCharge } from '../../../src/domain/payments/record.ts';
import { call, createTestApp, defaultSeed, provision, sandboxOf, startTestServer, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { CARD_EXP, CARD_EXPIRY } from '../../support/cards.ts';
import { dumpTablesOutsideVault } from '../../support/scan.ts';

/**
 * PCI scope: card numbers live only in the sandbox vault, encrypted; CVCs nowhere. Drives
 * provisioning (card registration), one-off charges and declines, then reads every table and
 * every log line.
 */
const CVC = '987';
const PANS = ['4242424242424242', '4000000000000002', '5555555555554444', '4000000000000341'];
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  const seed = defaultSeed();
  seed.integrators[0]!.cards.push({ reference: 'a3b1c2d4-0000-4000-8000-000000000341', number: '4000 0000 0000 0341', expiry: CARD_EXPIRY });
  await provision(t, seed);
  const acme = (await findIntegratorByToken(t.app.db, TEST_TOKEN))!;
  for (const [i, number] of PANS.entries()) {
    const key = `card-data-${i}`;
    const result = await sandboxOf(t.app).acquirer.charge(
      { source: { card: { number, ...CARD_EXP, cvc: CVC, holderName: 'Juan Dela Cruz' } }, amountMinor: 1000n, currency: 'PHP' },
      { idempotencyKey: key },
    );
    await t.app.db.transaction((tx) =>
      recordCharge(t.app, tx, { integratorId: acme.id, result, amountMinor: 1000n, currency: 'PHP', idempotencyKey: key, now: t.app.now() }),
    );
  }
});
afterAll(() => t?.close());

describe('card data', () => {
  it('never stores a card number or CVC outside the sandbox vault', async () => {
    const dump = await dumpTablesOutsideVault(t.app);
    expect(dump).toContain('payments'); // the scan read the tables
    for (const pan of PANS) {
      expect(dump).not.toContain(pan);
      expect(dump).not.toContain(pan.replace(/(\d{4})(?=\d)/g, '$1 '));
    }
    expect(dump).not.toMatch(new RegExp(`"${CVC}"`));
  });

  it('keeps vaulted numbers encrypted', async () => {
    const rows = await t.app.db.select().from(sandboxVault);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) for (const pan of PANS) expect(row.numberEnc).not.toContain(pan);
    const [one] = await t.app.db.select().from(sandboxVault).where(eq(sandboxVault.last4, '0341'));
    expect(one?.brand).toBe('visa');
  });

  it('writes no card number, CVC, token or secret to the log, even when the acquirer fails with the card in its error', async () => {
    // The charges above log nothing: a checkout payment whose acquirer call fails unexpectedly
    // does (500 ER.99.00, "request failed" with the error), and the error quotes the card, as a
    // careless acquirer client might.
    const server = await startTestServer(t.app);
    const charge = sandboxOf(t.app).acquirer.charge;
    try {
      const link = await call(server.url, 'POST', '/pay/acme-books', { token: null, body: { key: TEST_TOKEN } });
      const token = new URL(link.json.link).pathname.split('/')[2]!;
      sandboxOf(t.app).acquirer.charge = async (request) => {
        const card = 'card' in request.source ? request.source.card : undefined;
        throw new Error(`issuer timeout for ${card?.number.replace(/(\d{4})/g, '$1 ')}`, { cause: new Error(`request was ${JSON.stringify(request.source)}`) });
      };
      const logsBefore = t.logs.length;
      const res = await call(server.url, 'POST', `/checkout/${token}/pay`, {
        token: null,
        body: {
          fields: { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' },
          card: { number: PANS[0], expiry: CARD_EXPIRY, cvc: CVC, name: 'Juan Dela Cruz' },
        },
      });
      expect(res.status).toBe(500);
      expect(res.json.data.status_code).toBe('ER.99.00');
      const lines = t.logs.slice(logsBefore);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.join('\n')).toContain(res.json.data.request_id);
      expect(lines.join('\n')).toContain('issuer timeout');
    } finally {
      sandboxOf(t.app).acquirer.charge = charge;
      await server.close();
    }
    const logs = t.logs.join('\n');
    for (const pan of PANS) {
      expect(logs).not.toContain(pan);
      expect(logs).not.toContain(pan.replace(/(\d{4})(?=\d)/g, '$1 '));
    }
    expect(logs).not.toContain(TEST_TOKEN);
    expect(logs).not.toMatch(new RegExp(`\\b${CVC}\\b`));
  });
});
