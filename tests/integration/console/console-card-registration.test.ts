import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, cardRegistrations, schedules } from '../../../src/db/schema.ts';
import { CONSOLE_USERS, call, OTHER_TOKEN, useServedApp } from '../../support/app.ts';
import { ConsoleClient, confirmStepFields, textOf } from '../../support/console.ts';
import { ACME_CARD, OTHER_CARD, scheduleData, signSchedule, testClock } from '../../support/schedules.ts';

/**
 * A card registration's console page (/console/card-registrations/{reference}): its details, the
 * schedules charging it, its payments, and Delete, which asks first and then makes the call
 * DELETE /api/v1/card-registration makes, audited with the user. Owners and staff; another
 * integrator's is 404 for GET and POST and nothing changes.
 */
const clock = testClock('2026-04-01T02:00:00Z');
const served = useServedApp({ now: clock.now });
const { acmeOwner, acmeStaff, otherOwner } = CONSOLE_USERS;

async function signedIn(user: { email: string; password: string }) {
  const c = new ConsoleClient(served.server.url);
  const res = await c.signIn(user.email, user.password);
  expect(res.status, textOf(res.html)).toBe(303);
  return c;
}
const db = () => served.t.app.db;
const registration = async (reference: string) => (await db().select().from(cardRegistrations).where(eq(cardRegistrations.reference, reference)))[0]!;
const scheduleRow = async (id: string) => (await db().select().from(schedules).where(eq(schedules.id, id)))[0]!;
const stepText = (html: string) => textOf(/data-testid="confirm-step"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '');
const pathOf = (reference: string) => `/console/card-registrations/${reference}`;

/** A monthly schedule on the seeded card (or `card`), as the integrator's server makes it. */
async function monthlySchedule(card = ACME_CARD): Promise<string> {
  const res = await call(served.server.url, 'POST', '/api/v1/schedule', {
    body: {
      payload: await signSchedule(
        scheduleData({
          credit_card: { reference: card },
          schedule: { second: '0', minute: '0', hour: '7', day_of_month: '1', month: '*', day_of_week: '*' },
        }),
        { iat: clock.now() },
      ),
    },
  });
  expect(res.status, res.text).toBe(200);
  return res.json.data.reference as string;
}

/** A registration the customer has not completed yet (any acquirer takes one). */
async function pendingRegistration(customer: { name: string; email: string }, token?: string): Promise<string> {
  const res = await call(served.server.url, 'POST', '/api/v1/card-registrations', { body: { customer }, ...(token ? { token } : {}) });
  expect(res.status, res.text).toBe(200);
  return res.json.data.reference as string;
}

describe('console › a card registration’s page', () => {
  it('shows the card, the status in words, the schedules charging it and its payments, each a link', async () => {
    const schedule = await monthlySchedule();
    const run = await call(served.server.url, 'POST', `/api/v1/schedules/${schedule}/run`, { body: {} });
    expect(run.status, run.text).toBe(200);
    const transaction = run.json.data.transaction_id as string;
    const owner = await signedIn(acmeOwner);
    const page = await owner.get(pathOf(ACME_CARD));
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain('Visa ···· 4242 (expires');
    expect(text).toContain('Active: the card is saved and schedules can charge it.');
    expect(text).toContain('Juan Dela Cruz');
    expect(text).toContain('The sandbox (test mode: no real card)');
    expect(page.html).toContain(`href="/console/schedules/${schedule}"`);
    expect(text).toContain('₱150.00');
    expect(page.html).toContain(`href="/console/payments/${transaction}"`);
    expect(text).toContain('Delete card registration…');
    // Words, not codes: the status is a sentence; no status code shows outside a Reference line.
    expect(text).not.toMatch(/\b(OK|ER)\.\d{2}\.\d{2}\b/);
  });

  it('is linked from the list, the schedule’s page and the customer’s page', async () => {
    const reference = await pendingRegistration({ name: 'Lia Santos', email: 'lia@example.com' });
    const owner = await signedIn(acmeOwner);
    expect((await owner.get('/console/card-registrations')).html).toContain(`href="${pathOf(reference)}"`);
    expect((await owner.get('/console/customer?email=lia@example.com')).html).toContain(`href="${pathOf(reference)}"`);
    const schedule = await monthlySchedule();
    expect((await owner.get(`/console/schedules/${schedule}`)).html).toContain(`href="${pathOf(ACME_CARD)}"`);
    const page = await owner.get(pathOf(reference));
    expect(textOf(page.html)).toContain('Waiting for the customer to register the card (the registration link works until');
    expect(page.html).toContain('href="/console/customer?email=lia%40example.com"');
    expect(textOf(page.html)).toContain('No schedule charges this card.');
  });
});

describe('console › another integrator’s card registration', () => {
  it('is 404 for GET and POST, asked or confirmed, and nothing changes', async () => {
    const theirs = await pendingRegistration({ name: 'Other customer', email: 'other@example.com' }, OTHER_TOKEN);
    const schedule = await monthlySchedule();
    const intruder = await signedIn(otherOwner);
    const ours = pathOf(ACME_CARD);
    const page = await intruder.get(ours);
    expect(page.status).toBe(404);
    expect(page.html).not.toContain('Juan Dela Cruz');
    const csrf = await intruder.csrf(pathOf(OTHER_CARD));
    expect((await intruder.post(ours, { _csrf: csrf, action: 'delete' })).status).toBe(404);
    expect((await intruder.post(ours, { _csrf: csrf, action: 'delete', confirmed: 'yes' })).status).toBe(404);
    expect((await scheduleRow(schedule)).status).toBe('active');
    // Their own is theirs to see; a reference that is not one is 404 as well.
    expect((await intruder.get(pathOf(theirs))).status).toBe(200);
    expect((await intruder.get(pathOf('not-a-reference'))).status).toBe(404);
    const owner = await signedIn(acmeOwner);
    expect((await owner.get(pathOf(theirs))).status).toBe(404);
    expect((await owner.post(pathOf(theirs), { _csrf: await owner.csrf(pathOf(ACME_CARD)), action: 'delete', confirmed: 'yes' })).status).toBe(404);
    expect((await registration(theirs)).status).toBe('pending');
  });
});

describe('console › Delete card registration asks first', () => {
  it('states the schedules it cancels and that the customer must register again; deletes only on confirm, audited', async () => {
    const first = await monthlySchedule();
    const second = await monthlySchedule();
    const owner = await signedIn(acmeOwner);
    const path = pathOf(ACME_CARD);
    const asked = await owner.post(path, { action: 'delete' });
    expect(asked.status).toBe(200);
    const step = stepText(asked.html);
    expect(step).toContain('Delete this card registration?');
    expect(step).toContain('The card Visa ···· 4242');
    expect(step).toContain('can no longer be charged');
    expect(step).toContain('The schedules charging it are cancelled:');
    expect(step).toContain(`${first} (₱150.00 PHP)`);
    expect(step).toContain(`${second} (₱150.00 PHP)`);
    expect(step).toContain('they must register their card again');
    expect(step).toContain('cannot be undone');
    // The step replaces the Delete panel; the way back is the page. Nothing changes until confirmed.
    expect(asked.html).not.toContain('Delete card registration…');
    expect(asked.html).toContain(`href="${path}"`);
    expect((await registration(ACME_CARD)).status).toBe('active');
    expect((await scheduleRow(first)).status).toBe('active');

    const done = await owner.post(path, { ...confirmStepFields(asked.html)!, confirmed: 'yes' });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${path}?done=deleted`);
    expect((await registration(ACME_CARD)).status).toBe('deleted');
    expect((await scheduleRow(first)).status).toBe('cancelled');
    expect((await scheduleRow(second)).status).toBe('cancelled');
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, 'card_registration.deleted'));
    // Earlier tests of this file made schedules on the card too: each is cancelled and counted.
    const onCard = await db().select().from(schedules).where(eq(schedules.cardRegistrationReference, ACME_CARD));
    expect(onCard.every((s) => s.status === 'cancelled')).toBe(true);
    expect(entry).toMatchObject({ actorEmail: acmeOwner.email, target: `${ACME_CARD} (${onCard.length} schedules cancelled)` });

    const after = await owner.get(done.location!);
    expect(textOf(after.html)).toContain('The card registration is deleted; the schedules that charged it are cancelled. Reference: OK.11.20');
    expect(textOf(after.html)).toContain('Deleted: it can no longer be charged');
    expect(after.html).not.toContain('Delete card registration…');
    // Asking again about a deleted one changes nothing and asks nothing.
    const again = await owner.post(path, { action: 'delete' });
    expect(again.status).toBe(303);
    expect(confirmStepFields(again.html)).toBeUndefined();
  });

  it('staff may delete too (as they may cancel a schedule), audited as themselves', async () => {
    const reference = await pendingRegistration({ name: 'Ben Cruz', email: 'ben@example.com' });
    const staff = await signedIn(acmeStaff);
    const path = pathOf(reference);
    expect((await staff.get(path)).status).toBe(200);
    const asked = await staff.post(path, { action: 'delete' });
    expect(stepText(asked.html)).toContain('The customer’s registration link stops working.');
    expect(stepText(asked.html)).toContain('No schedule charges it now, so none is cancelled.');
    const done = await staff.post(path, { ...confirmStepFields(asked.html)!, confirmed: 'yes' });
    expect(done.status).toBe(303);
    expect((await registration(reference)).status).toBe('deleted');
    const entries = await db().select().from(auditLog).where(eq(auditLog.actorEmail, acmeStaff.email));
    expect(entries.map((e) => [e.action, e.target])).toContainEqual(['card_registration.deleted', reference]);
  });
});
