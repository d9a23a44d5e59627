import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, integrators, operatorAudit } from '../../../src/db/schema.ts';
import { reactivateIntegrator, suspendIntegrator } from '../../../src/domain/integrators/suspension.ts';
import { completeSetup, issueSetupLink } from '../../../src/domain/operators/accounts.ts';
import { call, TEST_TOKEN, useServedApp } from '../../support/app.ts';
import { ConsoleClient, confirmStepFields, textOf } from '../../support/console.ts';
import { recordStatusCode } from '../../support/status-codes-seen.ts';

/**
 * Suspend and Reactivate on the operator console's integrator page (src/operator/actions/integrator.ts):
 * each asks first (its confirm step states the consequence), then calls the shell's domain function
 * (src/domain/integrators/suspension.ts), CSRF-checked, written to the operator audit log and to
 * the merchant's activity. Asking for the state it is already in is a clear 409, never a 5xx.
 */
const served = useServedApp();
const operator = { email: 'suspender@paylink.example', password: 'help desk passphrase 8' };
const shell = {
  operator: { id: null, email: 'admin command (test)', ip: null, userAgent: 'paylink shell' },
  activity: { integratorId: null, userId: null, email: 'admin command (test)', ip: null, userAgent: 'npm run admin' },
};

beforeAll(async () => {
  const link = await issueSetupLink(served.t.app, { email: operator.email });
  const from = { ip: null, userAgent: 'operator-suspension-test' };
  await completeSetup(served.t.app, link!.url.split('/').at(-1)!, { email: '', password: operator.password, confirm: operator.password }, from);
});

const acme = async () => (await served.t.app.db.select().from(integrators).where(eq(integrators.email, 'billing@acme.example')))[0]!;
const page = async () => `/operator/integrators/${(await acme()).id}`;
const operatorLog = async () =>
  (
    await served.t.app.db
      .select()
      .from(operatorAudit)
      .where(eq(operatorAudit.integratorId, (await acme()).id))
  ).filter((a) => a.action.startsWith('integrator.'));

async function signedIn() {
  const c = new ConsoleClient(served.server.url);
  const res = await c.post('/operator/sign-in', operator, { from: '/operator/sign-in' });
  expect(res.status, textOf(res.html)).toBe(303);
  return c;
}

// A failed test leaves no suspension behind for the next.
afterEach(async () => {
  await reactivateIntegrator(served.t.app, (await acme()).id, shell);
  await served.t.app.db.delete(operatorAudit).where(eq(operatorAudit.integratorId, (await acme()).id));
});

describe('operator console › suspend', () => {
  it('asks first, stating the consequence, and changes nothing until confirmed', async () => {
    const c = await signedIn();
    const asked = await c.post(await page(), { action: 'suspend', reason: 'Business permit under review' });
    expect(asked.status).toBe(200);
    const step = textOf(/data-testid="confirm-step"[\s\S]*?<\/section>/.exec(asked.html)?.[0] ?? '');
    expect(step).toContain('Suspend Acme');
    expect(step).toContain('stops taking payments at once');
    expect(step).toContain('Its schedules pause');
    expect(step).toContain('Nothing is lost');
    expect(step).toContain('Reason (the merchant and other operators read it): Business permit under review');
    expect(confirmStepFields(asked.html)).toMatchObject({ action: 'suspend', reason: 'Business permit under review' });
    expect((await acme()).suspendedAt).toBeNull();
    expect(await operatorLog()).toEqual([]);
  });

  it('suspends once confirmed: the API refuses with ER.01.40, the page says so, both logs say who and why', async () => {
    const c = await signedIn();
    const done = await c.postConfirmed(await page(), { action: 'suspend', reason: 'Chargeback ratio above 1%' });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${await page()}?done=suspended#status`);
    const row = await acme();
    expect(row.suspendedAt).not.toBeNull();
    expect(row.suspendedReason).toBe('Chargeback ratio above 1%');
    const api = await call(served.server.url, 'POST', '/api/v1/links', {
      token: TEST_TOKEN,
      body: { slug: 'op-suspended', title: 'x', currency: 'PHP', amount: '1.00' },
    });
    expect(api.status).toBe(403);
    expect(api.json.data.status_code).toBe('ER.01.40');

    const shown = textOf((await c.get(`${await page()}?done=suspended`)).html);
    expect(shown).toContain('The integrator is suspended: it takes no new payments');
    expect(shown).toContain('Suspended since');
    expect(shown).toContain('Chargeback ratio above 1%');
    expect(shown).toContain('Reactivate…');

    const log = await operatorLog();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ action: 'integrator.suspended', operatorEmail: operator.email, target: 'Acme Books: Chargeback ratio above 1%' });
    expect(log[0]!.operatorId).not.toBeNull();
    const activity = await served.t.app.db.select().from(auditLog).where(eq(auditLog.integratorId, row.id));
    expect(activity.filter((a) => a.action === 'integrator.suspended').at(-1)).toMatchObject({
      actorEmail: `support (${operator.email})`,
      target: 'Chargeback ratio above 1%',
    });
    expect(textOf((await c.get('/operator/activity')).html)).toContain('integrator.suspended');
  });

  it('refuses without a reason, or an overlong one, beside the field (422), changing nothing', async () => {
    const c = await signedIn();
    for (const reason of ['', '   ', 'x'.repeat(501)]) {
      const res = await c.post(await page(), { action: 'suspend', reason, confirmed: 'yes' });
      expect(res.status).toBe(422);
      expect(res.html).toContain('id="suspend-reason-error"');
      expect(confirmStepFields(res.html)).toBeUndefined();
    }
    const asked = await c.post(await page(), { action: 'suspend' });
    expect(asked.status).toBe(422);
    expect(textOf(asked.html)).toContain('Reason is required: say why the integrator is suspended');
    expect((await acme()).suspendedAt).toBeNull();
    expect(await operatorLog()).toEqual([]);
  });

  it('refuses a form without the page’s CSRF token, or from another origin, changing nothing (403)', async () => {
    const c = await signedIn();
    const forged = await c.post(await page(), { action: 'suspend', reason: 'forged', confirmed: 'yes', _csrf: 'forged' });
    expect(forged.status).toBe(403);
    const elsewhere = await c.post(
      await page(),
      { action: 'suspend', reason: 'cross-site', confirmed: 'yes' },
      { headers: { origin: 'https://evil.example' } },
    );
    expect(elsewhere.status).toBe(403);
    expect((await acme()).suspendedAt).toBeNull();
    expect(await operatorLog()).toEqual([]);
  });

  it('already suspended: a clear 409 ER.05.20 at the confirm step and on confirm, the first reason kept', async () => {
    const c = await signedIn();
    const path = await page();
    // Two tabs: both reach the confirm step, the first confirms.
    const first = confirmStepFields((await c.post(path, { action: 'suspend', reason: 'First reason' })).html)!;
    const second = confirmStepFields((await c.post(path, { action: 'suspend', reason: 'Second reason' })).html)!;
    expect((await c.post(path, { ...first, confirmed: 'yes' })).status).toBe(303);
    const late = await c.post(path, { ...second, confirmed: 'yes' });
    expect(late.status).toBe(409);
    expect(textOf(late.html)).toContain('This integrator is already suspended; nothing changed.');
    recordStatusCode({ data: { status_code: 'ER.05.20' } });
    const again = await c.post(path, { action: 'suspend', reason: 'Third reason' });
    expect(again.status).toBe(409);
    expect(confirmStepFields(again.html)).toBeUndefined();
    expect((await acme()).suspendedReason).toBe('First reason');
    expect((await operatorLog()).map((a) => a.target)).toEqual(['Acme Books: First reason']);
  });

  it('an unknown integrator is a 404, never a 5xx', async () => {
    const c = await signedIn();
    const res = await c.post('/operator/integrators/int_nope', { action: 'suspend', reason: 'x', confirmed: 'yes' }, { from: '/operator' });
    expect(res.status).toBe(404);
  });
});

describe('operator console › reactivate', () => {
  it('asks first, then reactivates: the API takes payments again, the log names the reason it ends', async () => {
    const c = await signedIn();
    const path = await page();
    expect((await c.postConfirmed(path, { action: 'suspend', reason: 'KYC review' })).status).toBe(303);
    const asked = await c.post(path, { action: 'reactivate' });
    expect(asked.status).toBe(200);
    const step = textOf(/data-testid="confirm-step"[\s\S]*?<\/section>/.exec(asked.html)?.[0] ?? '');
    expect(step).toContain('Reactivate Acme');
    expect(step).toContain('takes payments again at once');
    expect(step).toContain('KYC review');
    expect((await acme()).suspendedAt).not.toBeNull();

    const done = await c.post(path, { ...confirmStepFields(asked.html)!, confirmed: 'yes' });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${path}?done=reactivated#status`);
    expect((await acme()).suspendedAt).toBeNull();
    expect(textOf((await c.get(`${path}?done=reactivated`)).html)).toContain('The integrator is active again');
    const api = await call(served.server.url, 'GET', '/api/v1/links', { token: TEST_TOKEN });
    expect(api.status).toBe(200);
    expect((await operatorLog()).map((a) => [a.action, a.target, a.operatorEmail])).toEqual([
      ['integrator.suspended', 'Acme Books: KYC review', operator.email],
      ['integrator.reactivated', 'Acme Books: suspended for: KYC review', operator.email],
    ]);
  });

  it('already active: a clear 409 ER.05.21, nothing written', async () => {
    const c = await signedIn();
    const asked = await c.post(await page(), { action: 'reactivate' });
    expect(asked.status).toBe(409);
    expect(textOf(asked.html)).toContain('This integrator is already active; nothing changed.');
    recordStatusCode({ data: { status_code: 'ER.05.21' } });
    const confirmed = await c.post(await page(), { action: 'reactivate', confirmed: 'yes' });
    expect(confirmed.status).toBe(409);
    expect(await operatorLog()).toEqual([]);
  });

  it('refuses without the CSRF token, changing nothing', async () => {
    const c = await signedIn();
    await c.postConfirmed(await page(), { action: 'suspend', reason: 'KYC review' });
    const forged = await c.post(await page(), { action: 'reactivate', confirmed: 'yes', _csrf: 'forged' });
    expect(forged.status).toBe(403);
    expect((await acme()).suspendedAt).not.toBeNull();
  });
});

describe('operator console › the shell’s suspension in the operator log', () => {
  it('the admin command’s actor is the shell: the operator log tells the whole story', async () => {
    await suspendIntegrator(served.t.app, (await acme()).id, 'From a shell', shell);
    const c = await signedIn();
    const list = textOf((await c.get('/operator')).html);
    expect(list).toMatch(/Acme Books[\s\S]*Suspended since \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    const log = await operatorLog();
    expect(log.map((a) => [a.action, a.operatorId, a.operatorEmail, a.target])).toEqual([
      ['integrator.suspended', null, 'admin command (test)', 'Acme Books: From a shell'],
    ]);
    expect(textOf((await c.get('/operator/activity')).html)).toMatch(/admin command \(test\)\s*integrator\.suspended\s*Acme Books: From a shell\s*shell/);
  });
});
