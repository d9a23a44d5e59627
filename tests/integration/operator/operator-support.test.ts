import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, integrators, operatorAudit, operators } from '../../../src/db/schema.ts';
import { completeSetup, issueSetupLink, type OperatorIdentity } from '../../../src/domain/operators/accounts.ts';
import { readPaymentForSupport } from '../../../src/domain/operators/support.ts';
import { useServedApp } from '../../support/app.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';
import { createPayment } from '../../support/payments.ts';

/** Support reads an integrator's payment only with a reason, and every read is audited before it is shown. */
const served = useServedApp();
const operator = { email: 'helpline@paylink.example', password: 'lantern orchard passphrase 9' };
const from = { ip: '198.51.100.7', userAgent: 'operator-support-test' };
const reason = '#4521: customer says they were charged twice';
let identity: OperatorIdentity;
let acmeId: string;
let otherId: string;

beforeAll(async () => {
  const link = await issueSetupLink(served.t.app, { email: operator.email });
  await completeSetup(served.t.app, link!.url.split('/').at(-1)!, { email: '', password: operator.password, confirm: operator.password }, from);
  const [row] = await served.t.app.db.select().from(operators).where(eq(operators.email, operator.email));
  identity = { sessionId: 'test', operator: row! };
  const all = await served.t.app.db.select().from(integrators);
  acmeId = all.find((i) => i.name === 'Acme Books')!.id;
  otherId = all.find((i) => i.name !== 'Acme Books')!.id;
});

const operatorLog = (integratorId: string) =>
  served.t.app.db.select().from(operatorAudit).where(eq(operatorAudit.integratorId, integratorId)).orderBy(operatorAudit.id);
const merchantLog = (integratorId: string) =>
  served.t.app.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.integratorId, integratorId), eq(auditLog.action, 'payment.read_by_support')));

describe('operator › support look-up of a payment', () => {
  it('returns the payment with its customer, and audits the read with the reason in both logs', async () => {
    const payment = await createPayment(served.t, { customerEmail: 'maria.santos@example.com', customer: { first_name: 'Maria', last_name: 'Santos' } });
    const record = await readPaymentForSupport(served.t.app, identity, acmeId, { payment_id: ` ${payment.id} `, reason }, from);
    expect(record.payment).toMatchObject({ id: payment.id, customerEmail: 'maria.santos@example.com' });
    const [entry] = (await operatorLog(acmeId)).filter((e) => e.action === 'payment.read');
    expect(entry).toMatchObject({ operatorEmail: operator.email, target: `${payment.id}: ${reason}`, ip: from.ip, userAgent: from.userAgent });
    const [seen] = await merchantLog(acmeId);
    expect(seen).toMatchObject({ actorEmail: `support (${operator.email})`, target: `${payment.id}: ${reason}`, ip: from.ip });
  });

  it('refuses a look-up without a real reason, or without an id, showing nothing and auditing nothing', async () => {
    const payment = await createPayment(served.t);
    const before = (await operatorLog(acmeId)).length;
    for (const [input, field] of [
      [{ payment_id: payment.id, reason: '' }, 'reason'],
      [{ payment_id: payment.id, reason: '  ticket  ' }, 'reason'],
      [{ payment_id: payment.id, reason: 'x'.repeat(301) }, 'reason'],
      [{ payment_id: '', reason }, 'payment_id'],
      [{ payment_id: "txn_1' or 1=1 --", reason }, 'payment_id'],
      [{ payment_id: 'x'.repeat(101), reason }, 'payment_id'],
    ] as const) {
      const refusal = readPaymentForSupport(served.t.app, identity, acmeId, input, from);
      await expect(refusal).rejects.toMatchObject({ code: 'ER.02.30', httpStatus: 422, messages: { [field]: [expect.any(String)] } });
    }
    expect((await operatorLog(acmeId)).length).toBe(before);
  });

  it('answers another integrator’s payment like a missing one, and audits the attempt as a miss', async () => {
    const acmePayment = await createPayment(served.t);
    const merchantBefore = (await merchantLog(otherId)).length;
    const refusal = readPaymentForSupport(served.t.app, identity, otherId, { payment_id: acmePayment.id, reason }, from);
    await expect(refusal).rejects.toMatchObject({ httpStatus: 404, messages: { payment_id: [expect.stringContaining('does not exist')] } });
    const misses = (await operatorLog(otherId)).filter((e) => e.action === 'payment.read_missing');
    expect(misses.map((e) => e.target)).toEqual([`${acmePayment.id}: ${reason}`]);
    // Nothing was read: the other integrator's activity log gets nothing, and Acme's no read of this payment.
    expect((await merchantLog(otherId)).length).toBe(merchantBefore);
    expect((await merchantLog(acmeId)).map((e) => e.target)).not.toContain(`${acmePayment.id}: ${reason}`);
  });
});

describe('operator console › Look up a payment', () => {
  async function signedIn() {
    const c = new ConsoleClient(served.server.url);
    const res = await c.post('/operator/sign-in', operator, { from: '/operator/sign-in' });
    expect(res.status, textOf(res.html)).toBe(303);
    return c;
  }

  it('shows the payment after a look-up with a reason, and the integrator’s page alone shows no payment', async () => {
    const payment = await createPayment(served.t, { customerEmail: 'juan.delacruz@example.org', amount: '1234.50' });
    const c = await signedIn();
    const page = await c.get(`/operator/integrators/${acmeId}`);
    expect(textOf(page.html)).toContain('Look up a payment');
    expect(page.html).not.toContain(payment.id);
    expect(page.html).not.toContain('juan.delacruz@example.org');
    const res = await c.post(`/operator/integrators/${acmeId}`, { action: 'payment', payment_id: payment.id, reason });
    expect(res.status).toBe(200);
    const text = textOf(res.html);
    expect(text).toContain(payment.id);
    expect(text).toContain('₱1,234.50');
    expect(text).toContain('juan.delacruz@example.org');
    expect(text).toContain(`Looked up for “${reason}”`);
    expect((await merchantLog(acmeId)).map((e) => e.target)).toContain(`${payment.id}: ${reason}`);
    // The merchant sees it in words in its own activity log.
    const owner = new ConsoleClient(served.server.url);
    expect((await owner.signIn('owner@acme.example', 'acme owner passphrase 1')).status).toBe(303);
    expect(textOf((await owner.get('/console/activity')).html)).toContain(`Support looked at payment ${payment.id}: ${reason}`);
  });

  it('refuses a look-up without a reason beside the field (422), keeping what was typed, showing no payment', async () => {
    const payment = await createPayment(served.t, { customerEmail: 'ana.reyes@example.net' });
    const c = await signedIn();
    const res = await c.post(`/operator/integrators/${acmeId}`, { action: 'payment', payment_id: payment.id, reason: 'because' });
    expect(res.status).toBe(422);
    const text = textOf(res.html);
    expect(text).toContain('say why you need it, at least 10 characters');
    expect(res.html).toContain(`value="${payment.id}"`);
    expect(text).not.toContain('ana.reyes@example.net');
    expect(res.html).not.toContain('data-testid="support-payment"');
  });
});
