import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, integratorAcquirers, integrators } from '../../../src/db/schema.ts';
import { CONSOLE_USERS, useServedApp } from '../../support/app.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';

/** The Developers page's acquirer section: owners set it, secrets are never shown back, changes are audited. */
const served = useServedApp();
const { acmeOwner, acmeStaff } = CONSOLE_USERS;

async function signedIn(user: { email: string; password: string }) {
  const c = new ConsoleClient(served.server.url);
  const res = await c.signIn(user.email, user.password);
  expect(res.status, textOf(res.html)).toBe(303);
  return c;
}
const acmeId = async () => (await served.t.app.db.select().from(integrators).where(eq(integrators.email, 'billing@acme.example')))[0]!.id;
const paymongo = {
  provider: 'paymongo',
  public_key: 'pk_test_consolekey1234',
  secret_key: 'sk_test_consolesecret987654',
  webhook_secret: 'whsk_consolewebhook4321',
};

describe('console › developers › acquirer', () => {
  it('an owner switches to PayMongo: the page shows the public key, the masked secret and the webhook address, never the secrets', async () => {
    const owner = await signedIn(acmeOwner);
    expect(textOf((await owner.get('/console/developers')).html)).toContain('Payments go through Sandbox (test mode)');
    const res = await owner.post('/console/developers', { action: 'acquirer', ...paymongo });
    expect(res.status, textOf(res.html)).toBe(200);
    const text = textOf(res.html);
    expect(text).toContain('Payments now go through PayMongo.');
    expect(text).toContain('pk_test_consolekey1234');
    expect(text).toContain('…7654');
    expect(res.html).toMatch(/data-testid="acquirer-webhook">http:\/\/127\.0\.0\.1:\d+\/webhooks\/paymongo\/wh_[a-f0-9]{32}</);
    expect(res.html).not.toContain(paymongo.secret_key);
    expect(res.html).not.toContain(paymongo.webhook_secret);
    const [row] = await served.t.app.db
      .select()
      .from(integratorAcquirers)
      .where(eq(integratorAcquirers.integratorId, await acmeId()));
    expect(JSON.stringify(row)).not.toContain(paymongo.secret_key);
    expect((await served.t.app.connectors.forIntegrator(await acmeId())).name).toBe('paymongo');
    const audit = await served.t.app.db.select().from(auditLog).where(eq(auditLog.action, 'acquirer.changed'));
    expect(audit.map((a) => a.target)).toEqual(['paymongo (pk_test_consolekey1234)']);
    expect(res.html).toMatch(/<option value="card_form" selected/);
  });

  it('refuses keys of the wrong shape or of mixed modes, saying which field', async () => {
    const owner = await signedIn(acmeOwner);
    const res = await owner.post('/console/developers', { action: 'acquirer', ...paymongo, secret_key: 'sk_live_consolesecret987654' });
    expect(res.status).toBe(422);
    expect(textOf(res.html)).toContain('Secret key must be of the same mode as the public key');
    const bad = await owner.post('/console/developers', { action: 'acquirer', ...paymongo, webhook_secret: 'nope' });
    expect(textOf(bad.html)).toContain("a PayMongo webhook's secret key");
  });

  it('chooses PayMongo’s hosted checkout page', async () => {
    const owner = await signedIn(acmeOwner);
    const res = await owner.post('/console/developers', { action: 'acquirer', ...paymongo, checkout: 'hosted' });
    expect(res.status, textOf(res.html)).toBe(200);
    expect(res.html).toMatch(/<option value="hosted" selected/);
    const [row] = await served.t.app.db
      .select()
      .from(integratorAcquirers)
      .where(eq(integratorAcquirers.integratorId, await acmeId()));
    expect(row!.hostedCheckout).toBe(true);
  });

  it('switches back to the sandbox', async () => {
    const owner = await signedIn(acmeOwner);
    const res = await owner.post('/console/developers', { action: 'acquirer', provider: 'sandbox' });
    expect(textOf(res.html)).toContain('Payments now go through the sandbox');
    expect((await served.t.app.connectors.forIntegrator(await acmeId())).name).toBe('sandbox');
  });

  it('staff cannot change it (the page does not exist for them)', async () => {
    const staff = await signedIn(acmeStaff);
    const res = await staff.post('/console/developers', { action: 'acquirer', provider: 'sandbox' });
    expect(res.status).toBe(404);
  });
});
