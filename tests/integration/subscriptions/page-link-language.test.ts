import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { links, type OutboxEvent, outboxEvents, schedules } from '../../../src/db/schema.ts';
import { payCheckout } from '../../../src/domain/checkout/pay.ts';
import { issueStaticTicket } from '../../../src/domain/checkout/sessions.ts';
import { renderEmail } from '../../../src/domain/notifications/email/templates.ts';
import { emailContext, storedEmailView } from '../../../src/domain/notifications/mail.ts';
import { subscriberToken } from '../../../src/domain/subscriptions/access.ts';
import { manageUrlFor } from '../../../src/domain/subscriptions/mail.ts';
import { call, defaultSeed, useServedApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';

/** The customer page of a plan every 2 weeks in its three languages, and the page-link e-mail in the language the customer asked in. */
const seed = defaultSeed();
seed.integrators[0]!.links.push({
  slug: 'fortnight-club',
  title: 'Fortnight club',
  currency: 'PHP',
  amount: '300.00',
  labels: {},
  fields: {},
  active: true,
  subscription: { interval: 'week', every: 2, cancel: 'customer_chooses' },
});
const served = useServedApp({}, seed);

const post = async (path: string, form: Record<string, string>, headers: Record<string, string> = {}) => {
  const res = await fetch(served.server.url + path, {
    method: 'POST',
    body: new URLSearchParams(form),
    redirect: 'manual',
    headers: { origin: served.server.url, ...headers },
  });
  return { status: res.status, location: res.headers.get('location') ?? '' };
};
const pageLinks = (to: string) =>
  served.t.app.db
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.type, 'subscription.page_link'), eq(outboxEvents.emailTo, to)));
/** The e-mail as the mailer writes it. */
const render = async (event: OutboxEvent) => {
  const { app } = served.t;
  const view = storedEmailView(event);
  const { merchant } = await emailContext(app.db, { integratorId: event.integratorId, view });
  return renderEmail({ type: event.type, view, createdAt: event.createdAt, merchant, manageUrl: await manageUrlFor(app, event, view) });
};

describe('subscriptions › every 2 weeks on the customer page, and the page-link e-mail in the customer’s language', () => {
  it('the customer page says every 2 weeks in en, fil and es', async () => {
    const { app } = served.t;
    const [link] = await app.db.select().from(links).where(eq(links.slug, 'fortnight-club'));
    for (const email of ['ana@example.com', 'ben@example.com', 'cruz@example.com']) {
      const fields = { 'customer.first_name': 'Ana', 'customer.last_name': 'Reyes', 'customer.contact.email': email };
      const card = { number: '4242424242424242', expiry: CARD_EXPIRY, cvc: '123', name: 'Ana Reyes' };
      const paid = await payCheckout(app, { slug: 'fortnight-club', input: { session: issueStaticTicket(app, link!.id), fields, card } });
      expect(paid.status).toBe('succeeded');
    }
    const token = subscriberToken(app, link!.integratorId, 'ana@example.com');
    const page = async (lang: string) => (await fetch(`${served.server.url}/subscriptions/manage?token=${token}&lang=${lang}`)).text();
    expect(await page('en')).toContain('every 2 weeks');
    expect(await page('fil')).toContain('bawat 2 linggo');
    expect(await page('es')).toContain('cada 2 semanas');
    // The API's view of the schedule says its period too.
    const [schedule] = await app.db.select().from(schedules).where(eq(schedules.linkId, link!.id)).limit(1);
    const api = await call(served.server.url, 'GET', `/api/v1/schedules/${schedule!.id}`);
    expect(api.json.data.schedule).toMatchObject({ link: 'fortnight-club', every: 2, status: 'active' });
  });

  it('the request carries the page’s language (?lang=, else the browser’s), and the e-mail is written in it', async () => {
    const expected: { to: string; path: string; headers: Record<string, string>; lang: string; words: string }[] = [
      { to: 'ana@example.com', path: '/subscriptions/manage/request?lang=fil', headers: {}, lang: 'fil', words: 'Pamahalaan ang iyong mga subscription' },
      {
        to: 'ben@example.com',
        path: '/subscriptions/manage/request',
        headers: { 'accept-language': 'es-MX,es;q=0.9' },
        lang: 'es',
        words: 'Gestiona tus suscripciones',
      },
      { to: 'cruz@example.com', path: '/subscriptions/manage/request', headers: {}, lang: 'en', words: 'Manage your subscriptions' },
    ];
    for (const e of expected) {
      const answer = await post(e.path, { link: 'fortnight-club', email: e.to }, e.headers);
      expect(answer.status).toBe(303);
      expect(answer.location).toContain('done=requested');
    }
    for (const e of expected) {
      await expect.poll(async () => (await pageLinks(e.to)).length).toBe(1);
      const [event] = await pageLinks(e.to);
      expect(event!.emailView?.locale ?? null).toBe(e.lang === 'en' ? null : e.lang);
      const mail = await render(event!);
      expect(mail.html).toContain(`<html lang="${e.lang}">`);
      expect(mail.text).toContain(e.words);
      expect(mail.text).toMatch(/\/subscriptions\/manage\?token=/);
    }
  });
});
