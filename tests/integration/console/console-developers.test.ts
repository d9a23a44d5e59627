import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, integrators } from '../../../src/db/schema.ts';
import { createCallbackSender } from '../../../src/workers/callbacks.ts';
import { CONSOLE_USERS, call, defaultSeed, OTHER_TOKEN, provision, TEST_SECRET, TEST_TOKEN, useServedApp } from '../../support/app.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';
import { scheduleData, signSchedule } from '../../support/schedules.ts';
import { startWebhookReceiver, verify, type WebhookReceiver } from '../../support/webhook-receiver.ts';

/**
 * The Developers page (/console/developers): the API token, the JWT secret and the webhook
 * secret rotated from the console, the default callback URL and a test event, on the built app.
 */
const clock = { now: new Date('2026-03-02T09:00:00Z') };
const advanceMinutes = (minutes: number) => {
  clock.now = new Date(clock.now.getTime() + minutes * 60_000);
};
const served = useServedApp({ now: () => clock.now });
const { acmeOwner, acmeStaff } = CONSOLE_USERS;

async function signedIn(user: { email: string; password: string }) {
  const c = new ConsoleClient(served.server.url);
  const res = await c.signIn(user.email, user.password);
  expect(res.status, textOf(res.html)).toBe(303);
  return c;
}
const acme = async () => (await served.t.app.db.select().from(integrators).where(eq(integrators.email, 'billing@acme.example')))[0]!;
const auditActions = async () => (await served.t.app.db.select().from(auditLog).where(eq(auditLog.actorEmail, acmeOwner.email))).map((e) => e.action);
/** The value a rotation shows once. */
const shownValues: string[] = [];
const shownSecret = (html: string) => {
  const value = /data-testid="new-secret">([^<]+)</.exec(html)?.[1];
  if (value) shownValues.push(value);
  return value;
};
const integratorWith = (token: string) => call(served.server.url, 'GET', '/api/v1/integrator', { token });

describe('console › developers › API token', () => {
  it('shows a new token once; the old one works through the chosen overlap, then stops', async () => {
    const owner = await signedIn(acmeOwner);
    const res = await owner.postConfirmed('/console/developers', { action: 'rotate-token', overlap: '1h' });
    expect(res.status, textOf(res.html)).toBe(200);
    const token = shownSecret(res.html)!;
    expect(token).toMatch(/^pl_[A-Za-z0-9_-]{43}$/);
    expect(textOf(res.html)).toContain('The old token keeps working until 2026-03-02 10:00 UTC.');
    expect((await owner.get('/console/developers')).html).not.toContain(token);
    const row = await acme();
    expect(JSON.stringify(row)).not.toContain(token);

    expect((await integratorWith(token)).status).toBe(200);
    expect((await integratorWith(TEST_TOKEN)).status).toBe(200);
    advanceMinutes(59);
    expect((await integratorWith(TEST_TOKEN)).status).toBe(200);
    advanceMinutes(2);
    expect((await integratorWith(TEST_TOKEN)).status).toBe(401);
    expect((await integratorWith(token)).json.data.integrator.name).toBe('Acme Books');

    // With no overlap the replaced token stops at once (signed in again: the session went idle meanwhile).
    const again = await (await signedIn(acmeOwner)).postConfirmed('/console/developers', { action: 'rotate-token', overlap: 'none' });
    const next = shownSecret(again.html)!;
    expect(textOf(again.html)).toContain('The old token has stopped working.');
    expect((await integratorWith(token)).status).toBe(401);
    expect((await integratorWith(next)).status).toBe(200);
    expect(await auditActions()).toEqual(expect.arrayContaining(['api_token.rotated']));

    // The same seed applied again at a restart leaves the console's token in place.
    await provision(served.t);
    expect((await integratorWith(next)).status).toBe(200);
    expect((await integratorWith(TEST_TOKEN)).status).toBe(401);
    // The other integrator is untouched throughout.
    expect((await integratorWith(OTHER_TOKEN)).status).toBe(200);
  });

  it('refuses an overlap that is not offered, and changes nothing', async () => {
    const owner = await signedIn(acmeOwner);
    const before = (await acme()).tokenHash;
    const res = await owner.postConfirmed('/console/developers', { action: 'rotate-token', overlap: '30d' });
    expect(res.status).toBe(422);
    expect(textOf(res.html)).toContain('The overlap must be one of none, 1h, 24h, 7d');
    expect((await acme()).tokenHash).toBe(before);
  });
});

describe('console › developers › JWT secret', () => {
  it('accepts POST /schedule payloads signed with the old secret through the overlap, then only the new one', async () => {
    const owner = await signedIn(acmeOwner);
    const res = await owner.postConfirmed('/console/developers', { action: 'rotate-secret', overlap: '24h' });
    const secret = shownSecret(res.html)!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(await acme())).not.toContain(secret);
    const token = shownSecret((await owner.postConfirmed('/console/developers', { action: 'rotate-token', overlap: '7d' })).html)!;
    const post = async (s: string) =>
      call(served.server.url, 'POST', '/api/v1/schedule', { token, body: { payload: await signSchedule(scheduleData(), { secret: s, iat: clock.now }) } });

    expect((await post(secret)).status).toBe(200);
    expect((await post(TEST_SECRET)).status).toBe(200);
    advanceMinutes(24 * 60 + 1);
    const late = await post(TEST_SECRET);
    expect(late.status).toBe(422);
    expect(late.json.data.status_code).toBe('ER.01.10');
    expect((await post(secret)).status).toBe(200);

    const now = await (await signedIn(acmeOwner)).postConfirmed('/console/developers', { action: 'rotate-secret', overlap: 'none' });
    const newest = shownSecret(now.html)!;
    expect((await post(secret)).status).toBe(422);
    expect((await post(newest)).status).toBe(200);
    expect(await auditActions()).toContain('jwt_secret.rotated');
    // A restart with the same seed keeps the rotated secret.
    await provision(served.t);
    expect((await post(newest)).status).toBe(200);
  });
});

describe('console › developers › webhook secret, callback URL and test event', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('rotates the webhook secret with the 24-hour overlap: the old one still signs beside the new one', async () => {
    const owner = await signedIn(acmeOwner);
    const before = await acme();
    const res = await owner.postConfirmed('/console/developers', { action: 'rotate-webhook' });
    const secret = shownSecret(res.html)!;
    expect(secret).toMatch(/^whsec_/);
    const until = new Date(clock.now.getTime() + 24 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
    expect(textOf(res.html)).toContain(`Events are signed with both secrets until ${until} UTC`);
    const after = await acme();
    expect(served.t.app.secrets.open(after.webhookSecretEnc)).toBe(secret);
    expect(after.previousWebhookSecretEnc).toBe(before.webhookSecretEnc);
    expect(await auditActions()).toContain('webhook_secret.rotated');
  });

  it('saves the default callback URL through the API’s own rules; a bad one is refused and nothing changes', async () => {
    const owner = await signedIn(acmeOwner);
    const bad = await owner.post('/console/developers', { action: 'callback-url', default_callback_url: 'ftp://merchant.example/hook' });
    expect(bad.status).toBe(422);
    expect(textOf(bad.html)).toMatch(/Callback URL .*http/);
    expect((await acme()).defaultCallbackUrl).toBeNull();
    const good = await owner.post('/console/developers', { action: 'callback-url', default_callback_url: `${receiver.url}/hooks` });
    expect(good.status).toBe(200);
    expect(textOf(good.html)).toContain('The default callback URL is saved.');
    expect((await acme()).defaultCallbackUrl).toBe(`${receiver.url}/hooks`);
    expect(await auditActions()).toContain('callback_url.changed');
  });

  it('saves the customer support e-mail (shown on payment pages), refuses a bad one, and clears it', async () => {
    const owner = await signedIn(acmeOwner);
    const bad = await owner.post('/console/developers', { action: 'support-email', support_email: 'not an address' });
    expect(bad.status).toBe(422);
    expect(textOf(bad.html)).toMatch(/Support e-mail .*e-mail address/);
    expect((await acme()).supportEmail).toBeNull();
    const good = await owner.post('/console/developers', { action: 'support-email', support_email: ' help@acme.example ' });
    expect(good.status).toBe(200);
    expect(textOf(good.html)).toContain('The support e-mail is saved');
    expect((await acme()).supportEmail).toBe('help@acme.example');
    expect(await auditActions()).toContain('support_email.changed');
    const page = await fetch(`${served.server.url}/pay/acme-books`);
    expect(await page.text()).toContain('href="mailto:help@acme.example"');
    const cleared = await owner.post('/console/developers', { action: 'support-email', support_email: '' });
    expect(textOf(cleared.html)).toContain('The support e-mail is cleared');
    expect((await acme()).supportEmail).toBeNull();
  });

  it('sends a webhook.test event through the outbox, signed like every event, and shows its delivery', async () => {
    const owner = await signedIn(acmeOwner);
    const res = await owner.post('/console/developers', { action: 'test-event' });
    expect(res.status).toBe(200);
    const eventId = /Test event (evt_[0-9a-f]+) is queued/.exec(textOf(res.html))?.[1];
    expect(eventId).toBeDefined();
    const sender = createCallbackSender(served.t.app);
    try {
      // Other events (the schedules' above) are due too; deliver until the test event arrives.
      for (let round = 0; round < 5 && receiver.received.length === 0; round++) await sender.deliverDue();
    } finally {
      await sender.close();
    }
    expect(receiver.received).toHaveLength(1);
    const delivered = receiver.received[0]!;
    expect(delivered.path).toBe('/hooks');
    const secret = served.t.app.secrets.open((await acme()).webhookSecretEnc);
    // The receiver checks the signature's timestamp against its own clock: the test's clock.
    vi.useFakeTimers({ toFake: ['Date'], now: clock.now });
    const body = (() => {
      try {
        return verify(secret, delivered) as { id: string; type: string };
      } finally {
        vi.useRealTimers();
      }
    })();
    expect(body).toMatchObject({ id: eventId, type: 'webhook.test' });
    const page = await owner.get('/console/developers');
    expect(textOf(page.html)).toContain(`${eventId} 2026-`);
    expect(textOf(page.html)).toMatch(new RegExp(`${eventId} .* delivered 1 HTTP 200`));
    // The integrator sees it among its events, like any other.
    const token = shownSecret((await owner.postConfirmed('/console/developers', { action: 'rotate-token', overlap: '1h' })).html)!;
    const events = await call(served.server.url, 'GET', '/api/v1/events?type=webhook.test', { token });
    expect(events.json.data.items.map((e: { id: string }) => e.id)).toContain(eventId);

    // The API sends one too: POST /api/v1/events/test.
    const api = await call(served.server.url, 'POST', '/api/v1/events/test', { token });
    expect(api.status).toBe(200);
    expect(api.json.data).toMatchObject({ status_code: 'OK.13.01', callback_url: `${receiver.url}/hooks`, callback_state: 'pending' });
    const again = createCallbackSender(served.t.app);
    try {
      await again.deliverDue();
    } finally {
      await again.close();
    }
    expect(receiver.received).toHaveLength(2);
    expect(JSON.parse(receiver.received[1]!.body)).toMatchObject({ id: api.json.data.event_id, type: 'webhook.test' });
  });

  it('refuses a test event when there is no callback URL to send it to', async () => {
    const owner = await signedIn(acmeOwner);
    await owner.post('/console/developers', { action: 'callback-url', default_callback_url: '' });
    expect((await acme()).defaultCallbackUrl).toBeNull();
    const res = await owner.post('/console/developers', { action: 'test-event' });
    expect(res.status).toBe(409);
    expect(textOf(res.html)).toContain('Your default callback URL is not set');
    const token = shownSecret((await owner.postConfirmed('/console/developers', { action: 'rotate-token', overlap: '1h' })).html)!;
    const api = await call(served.server.url, 'POST', '/api/v1/events/test', { token });
    expect(api.status).toBe(409);
    expect(api.json.data.status_code).toBe('ER.13.30');
    expect(api.json.messages.default_callback_url[0]).toMatch(/^is not set/);
  });
});

describe('console › developers › who may use it', () => {
  it('answers 404 to staff, and refuses their rotations', async () => {
    const staff = await signedIn(acmeStaff);
    const before = await acme();
    expect((await staff.get('/console/developers')).status).toBe(404);
    const res = await staff.post('/console/developers', { confirmed: 'yes', action: 'rotate-token', overlap: 'none' }, { from: '/console' });
    expect(res.status).toBe(404);
    expect(shownSecret(res.html)).toBeUndefined();
    expect((await acme()).tokenHash).toBe(before.tokenHash);
    expect((await staff.get('/console')).html).not.toContain('href="/console/developers"');
  });

  it('refuses a rotation without the CSRF token or from another site, and changes nothing', async () => {
    const owner = await signedIn(acmeOwner);
    const before = await acme();
    for (const res of [
      await owner.post('/console/developers', { _csrf: '', confirmed: 'yes', action: 'rotate-token', overlap: 'none' }),
      await owner.post('/console/developers', { confirmed: 'yes', action: 'rotate-secret', overlap: 'none' }, { headers: { origin: 'https://evil.example' } }),
      await owner.post('/console/developers', { confirmed: 'yes', action: 'rotate-webhook' }, { headers: { 'sec-fetch-site': 'cross-site' } }),
    ]) {
      expect(res.status).toBe(403);
      expect(shownSecret(res.html)).toBeUndefined();
    }
    const after = await acme();
    expect([after.tokenHash, after.secretEnc, after.webhookSecretEnc]).toEqual([before.tokenHash, before.secretEnc, before.webhookSecretEnc]);
  });
});

describe('console › developers › the seed', () => {
  it('takes a token changed in the seed when the seed is applied again, over the console’s', async () => {
    const owner = await signedIn(acmeOwner);
    const rotated = shownSecret((await owner.postConfirmed('/console/developers', { action: 'rotate-token', overlap: '24h' })).html)!;
    const seed = defaultSeed();
    const seeded = 'seed_token_changed_0123456789abcdefghijklmnop';
    seed.integrators[0]!.token = seeded;
    await provision(served.t, seed);
    expect((await integratorWith(seeded)).status).toBe(200);
    expect((await integratorWith(rotated)).status).toBe(401);
  });
});

describe('console › developers › secrets stay secret', () => {
  it('never writes a rotated token or secret to the logs or the audit log', async () => {
    expect(shownValues.length).toBeGreaterThanOrEqual(8);
    const logs = served.t.logs.join('\n');
    const audit = JSON.stringify(await served.t.app.db.select().from(auditLog));
    for (const value of shownValues) {
      expect(logs).not.toContain(value);
      expect(audit).not.toContain(value);
    }
  });
});
