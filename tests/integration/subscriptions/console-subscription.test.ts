import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { links } from '../../../src/db/schema.ts';
import { CONSOLE_USERS, useServedApp } from '../../support/app.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';

/** The link editor's "Subscription" section: the plan saved through the links' one editor, refusals beside its fields. */
const served = useServedApp();

const form = (over: Record<string, string> = {}) => {
  const f = new FormData();
  const fields = { title: 'Gym membership', amount_mode: 'fixed', amount: '1500.00', currency: 'PHP', active: 'on', ...over };
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  f.set('logo', new File([], '', { type: 'application/octet-stream' }));
  return f;
};

describe('subscriptions › the console editor', () => {
  it('saves a plan from the Subscription section and shows it again', async () => {
    const owner = new ConsoleClient(served.server.url);
    expect((await owner.signIn(CONSOLE_USERS.acmeOwner.email, CONSOLE_USERS.acmeOwner.password)).status).toBe(303);
    const editor = await owner.get('/console/links/new');
    expect(textOf(editor.html)).toContain('Subscription');
    const res = await owner.postMultipart(
      '/console/links/new',
      form({
        slug: 'gym-plan',
        'subscription.on': 'on',
        'subscription.interval': 'month',
        'subscription.every': '3',
        'subscription.cycles': '',
        'subscription.cancel': 'immediately',
      }),
    );
    expect(res.status, textOf(res.html)).toBe(303);
    const [link] = await served.t.app.db.select().from(links).where(eq(links.slug, 'gym-plan'));
    expect(link!.subscription).toEqual({ interval: 'month', every: 3, cancel: 'immediately' });
    const shown = await owner.get('/console/links/gym-plan');
    expect(shown.html).toMatch(/name="subscription.on"[^>]*checked/);
    expect(shown.html).toMatch(/<option value="immediately" selected/);
  });

  it('refuses a bad plan beside its field and saves nothing', async () => {
    const owner = new ConsoleClient(served.server.url);
    await owner.signIn(CONSOLE_USERS.acmeOwner.email, CONSOLE_USERS.acmeOwner.password);
    const res = await owner.postMultipart(
      '/console/links/new',
      form({ slug: 'gym-bad', 'subscription.on': 'on', 'subscription.interval': 'week', 'subscription.every': '53' }),
    );
    expect(res.status).toBe(422);
    expect(textOf(res.html)).toContain('must be at most 52 for weeks');
    expect(await served.t.app.db.select().from(links).where(eq(links.slug, 'gym-bad'))).toHaveLength(0);
  });

  it('saves a plan every 2 weeks (a period six cron fields cannot repeat)', async () => {
    const owner = new ConsoleClient(served.server.url);
    await owner.signIn(CONSOLE_USERS.acmeOwner.email, CONSOLE_USERS.acmeOwner.password);
    const res = await owner.postMultipart(
      '/console/links/new',
      form({ slug: 'gym-fortnight', 'subscription.on': 'on', 'subscription.interval': 'week', 'subscription.every': '2', 'subscription.cancel': 'period_end' }),
    );
    expect(res.status, textOf(res.html)).toBe(303);
    const [link] = await served.t.app.db.select().from(links).where(eq(links.slug, 'gym-fortnight'));
    expect(link!.subscription).toEqual({ interval: 'week', every: 2, cancel: 'period_end' });
  });
});
