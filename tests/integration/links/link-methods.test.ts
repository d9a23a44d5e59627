import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, integrators, links } from '../../../src/db/schema.ts';
import { allowedMethods } from '../../../src/domain/links/payment-methods.ts';
import { CONSOLE_USERS, call, defaultSeed, provision, useServedApp } from '../../support/app.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';

/**
 * Links choose their payment methods (API, seed, console), integrators their defaults; on the
 * sandbox, which takes every method. Refusals change nothing.
 */
const served = useServedApp();
const api = (method: string, path: string, body?: unknown) => call(served.server.url, method, path, { body });
const linkRow = async (slug: string) => (await served.t.app.db.select().from(links).where(eq(links.slug, slug)))[0];
const acme = async () => (await served.t.app.db.select().from(integrators).where(eq(integrators.email, 'billing@acme.example')))[0]!;

async function owner() {
  const c = new ConsoleClient(served.server.url);
  const res = await c.signIn(CONSOLE_USERS.acmeOwner.email, CONSOLE_USERS.acmeOwner.password);
  expect(res.status, textOf(res.html)).toBe(303);
  return c;
}

/** The link editor's form with methods ticked and numbered as a browser sends them. */
function editorForm(fields: Record<string, string>, methods: Array<[string, string]> = []) {
  const form = new FormData();
  const base = { title: 'Market stall', amount_mode: 'fixed', amount: '350.00', currency: 'PHP', brand_color: '#7c2d12', active: 'on', ...fields };
  for (const [k, v] of Object.entries(base)) form.set(k, v);
  for (const [method, order] of methods) {
    form.append('payment_method', method);
    form.set(`method_order.${method}`, order);
  }
  form.set('logo', new File([], '', { type: 'application/octet-stream' }));
  return form;
}

describe('links › payment methods by API', () => {
  it('creates a link with its methods in the merchant’s order, shows them, changes and clears them', async () => {
    const made = await api('POST', '/api/v1/links', {
      slug: 'pm-stall',
      title: 'Stall',
      currency: 'PHP',
      amount: '120.00',
      payment_methods: ['gcash', 'qrph', 'card'],
    });
    expect(made.status, made.text).toBe(200);
    expect(made.json.data.link.payment_methods).toEqual(['gcash', 'qrph', 'card']);
    expect((await api('GET', '/api/v1/links/pm-stall')).json.data.link.payment_methods).toEqual(['gcash', 'qrph', 'card']);
    const listed = (await api('GET', '/api/v1/links?limit=100')).json.data.items.find((l: { slug: string }) => l.slug === 'pm-stall');
    expect(listed.payment_methods).toEqual(['gcash', 'qrph', 'card']);
    const changed = await api('PATCH', '/api/v1/links/pm-stall', { payment_methods: ['card', 'billease'] });
    expect(changed.json.data.link.payment_methods).toEqual(['card', 'billease']);
    // A change of something else leaves the methods as they are; null hands them back to the defaults.
    expect((await api('PATCH', '/api/v1/links/pm-stall', { title: 'Stall 2' })).json.data.link.payment_methods).toEqual(['card', 'billease']);
    expect((await api('PATCH', '/api/v1/links/pm-stall', { payment_methods: null })).json.data.link.payment_methods).toBeNull();
    expect((await linkRow('pm-stall'))!.paymentMethods).toBeNull();
    expect((await api('POST', '/api/v1/links', { title: 'No choice', currency: 'PHP' })).json.data.link.payment_methods).toBeNull();
  });

  it('refuses an unknown method by name, a method named twice and a list that is not one; nothing is written', async () => {
    const unknown = await api('POST', '/api/v1/links', { slug: 'pm-bad', title: 'Bad', currency: 'PHP', payment_methods: ['card', 'venmo'] });
    expect(unknown.status).toBe(422);
    expect(unknown.json.data.status_code).toBe('ER.02.30');
    expect(unknown.json.messages['payment_methods.1'][0]).toContain('"venmo" is not a payment method paylink knows; use card, qrph, gcash');
    const twice = await api('POST', '/api/v1/links', { slug: 'pm-bad', title: 'Bad', currency: 'PHP', payment_methods: ['qrph', 'qrph'] });
    expect(twice.json.messages.payment_methods).toEqual(['must not name a payment method twice']);
    const text = await api('POST', '/api/v1/links', { slug: 'pm-bad', title: 'Bad', currency: 'PHP', payment_methods: 'gcash' });
    expect(text.json.messages.payment_methods[0]).toContain('must be a list of payment method ids');
    expect(await linkRow('pm-bad')).toBeUndefined();
  });

  it('refuses a link allowed no method with its own code (ER.03.13), made or changed; nothing is written', async () => {
    const empty = await api('POST', '/api/v1/links', { slug: 'pm-empty', title: 'Empty', currency: 'PHP', payment_methods: [] });
    expect(empty.status, empty.text).toBe(422);
    expect(empty.json.data.status_code).toBe('ER.03.13');
    expect(empty.json.messages).toEqual({ payment_methods: ['must allow at least one payment method'] });
    expect(await linkRow('pm-empty')).toBeUndefined();
    await api('POST', '/api/v1/links', { slug: 'pm-keep', title: 'Keep', currency: 'PHP', payment_methods: ['qrph'] });
    const emptied = await api('PATCH', '/api/v1/links/pm-keep', { title: 'Changed', payment_methods: [] });
    expect(emptied.json.data.status_code).toBe('ER.03.13');
    expect(await linkRow('pm-keep')).toMatchObject({ title: 'Keep', paymentMethods: ['qrph'] });
  });

  it('integrators choose their defaults (an empty or unknown list refused), which a link naming none offers', async () => {
    const empty = await api('PATCH', '/api/v1/integrator', { default_payment_methods: [] });
    expect(empty.status).toBe(422);
    expect(empty.json.messages.default_payment_methods[0]).toContain('must name at least one payment method');
    expect((await api('PATCH', '/api/v1/integrator', { default_payment_methods: ['zelle'] })).status).toBe(422);
    const set = await api('PATCH', '/api/v1/integrator', { default_payment_methods: ['qrph', 'gcash', 'card'] });
    expect(set.status, set.text).toBe(200);
    expect(set.json.data.integrator.default_payment_methods).toEqual(['qrph', 'gcash', 'card']);
    const link = (await api('POST', '/api/v1/links', { slug: 'pm-defaults', title: 'Defaults', currency: 'PHP' })).json.data.link;
    expect(link.payment_methods).toBeNull();
    const connector = await served.t.app.connectors.forIntegrator((await acme()).id);
    expect(allowedMethods((await linkRow('pm-defaults'))!, await acme(), connector)).toEqual(['qrph', 'gcash', 'card']);
    const cleared = await api('PATCH', '/api/v1/integrator', { default_payment_methods: null });
    expect(cleared.json.data.integrator.default_payment_methods).toBeNull();
    // Nobody chose: every method the sandbox takes, cards first (links made before methods existed open on the card form).
    expect(allowedMethods((await linkRow('pm-defaults'))!, await acme(), connector)).toEqual([
      'card',
      'qrph',
      'gcash',
      'paymaya',
      'grab_pay',
      'shopeepay',
      'dob',
      'brankas',
      'billease',
    ]);
  });
});

describe('links › payment methods from the seed', () => {
  it('applies a seed link’s methods and the integrator’s defaults', async () => {
    const seed = defaultSeed();
    seed.integrators[0]!.default_payment_methods = ['gcash', 'card'];
    seed.integrators[0]!.links.push({
      slug: 'pm-seed',
      title: 'Seeded',
      currency: 'PHP',
      amount: '80.00',
      labels: {},
      fields: {},
      active: true,
      payment_methods: ['qrph', 'card'],
    });
    await provision(served.t, seed);
    expect((await linkRow('pm-seed'))!.paymentMethods).toEqual(['qrph', 'card']);
    expect((await acme()).defaultPaymentMethods).toEqual(['gcash', 'card']);
    await served.t.app.db.update(integrators).set({ defaultPaymentMethods: null }).where(eq(integrators.email, 'billing@acme.example'));
  });
});

describe('console › payment methods', () => {
  it('the editor lists every method the sandbox takes by name, in a fieldset, with the account’s defaults', async () => {
    const c = await owner();
    const page = await c.get('/console/links/new');
    expect(page.html).toContain('<legend>Payment methods</legend>');
    for (const name of ['Card', 'QR Ph', 'GCash', 'Maya', 'GrabPay', 'ShopeePay', 'Online banking', 'BillEase']) expect(textOf(page.html)).toContain(name);
    expect(page.html).toMatch(/name="payment_method" value="gcash"/);
    expect(page.html).toMatch(/id="methods-mode-default"[^>]*checked/);
  });

  it('saves the ticked methods in the order of their numbers, and the default choice as null', async () => {
    const c = await owner();
    const made = await c.postMultipart(
      '/console/links/new',
      editorForm({ slug: 'pm-console', methods_mode: 'chosen' }, [
        ['card', '3'],
        ['gcash', '1'],
        ['qrph', '2'],
      ]),
    );
    expect(made.status, textOf(made.html)).toBe(303);
    expect((await linkRow('pm-console'))!.paymentMethods).toEqual(['gcash', 'qrph', 'card']);
    const page = await c.get('/console/links/pm-console');
    expect(page.html).toMatch(/id="methods-mode-chosen"[^>]*checked/);
    expect(page.html).toMatch(/id="method-gcash"[^>]*checked/);
    expect(page.html).not.toMatch(/id="method-billease"[^>]*checked/);
    const back = await c.postMultipart('/console/links/pm-console', editorForm({ methods_mode: 'default' }, [['card', '1']]));
    expect(back.status, textOf(back.html)).toBe(200);
    expect((await linkRow('pm-console'))!.paymentMethods).toBeNull();
    expect((await served.t.app.db.select().from(auditLog).where(eq(auditLog.target, 'pm-console'))).map((e) => e.action)).toEqual(
      expect.arrayContaining(['link.created', 'link.updated']),
    );
  });

  it('refuses a choice of no method beside the fieldset (ER.03.13), and keeps the link as it was', async () => {
    const c = await owner();
    await api('POST', '/api/v1/links', { slug: 'pm-console-none', title: 'Keep', currency: 'PHP', amount: '50.00', payment_methods: ['qrph'] });
    const res = await c.postMultipart('/console/links/pm-console-none', editorForm({ methods_mode: 'chosen' }));
    expect(res.status).toBe(422);
    expect(textOf(res.html)).toContain('Payment methods must allow at least one payment method');
    expect(res.html).toMatch(/id="field-payment_methods"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="field-payment_methods"/);
    expect((await linkRow('pm-console-none'))!).toMatchObject({ title: 'Keep', paymentMethods: ['qrph'] });
  });

  it('the live preview names the methods the page would offer, in order', async () => {
    const c = await owner();
    const chosen = await c.postMultipart(
      '/console/links/preview',
      editorForm({ methods_mode: 'chosen' }, [
        ['billease', '2'],
        ['paymaya', '1'],
      ]),
      { from: '/console/links/new' },
    );
    expect(chosen.status).toBe(200);
    expect(textOf(chosen.html)).toContain('Payment methods, in this order: Maya · BillEase');
    const fallback = await c.postMultipart('/console/links/preview', editorForm({ methods_mode: 'default' }), { from: '/console/links/new' });
    expect(textOf(fallback.html)).toContain(
      'Payment methods, in this order: Card · QR Ph · GCash · Maya · GrabPay · ShopeePay · Online banking · Online banking (Brankas) · BillEase',
    );
  });

  it('the Developers page sets the account’s default methods, audited, and back to every method', async () => {
    const c = await owner();
    const form = new FormData();
    form.set('action', 'payment-methods');
    form.set('methods_mode', 'chosen');
    for (const [m, n] of [
      ['card', '2'],
      ['qrph', '1'],
    ] as const) {
      form.append('payment_method', m);
      form.set(`method_order.${m}`, n);
    }
    const saved = await c.postMultipart('/console/developers', form);
    expect(saved.status, textOf(saved.html)).toBe(200);
    expect(textOf(saved.html)).toContain('The default payment methods are saved');
    expect((await acme()).defaultPaymentMethods).toEqual(['qrph', 'card']);
    const editor = await c.get('/console/links/new');
    expect(textOf(editor.html)).toContain("Your account's default methods: QR Ph, Card");
    const none = new FormData();
    none.set('action', 'payment-methods');
    none.set('methods_mode', 'chosen');
    const refused = await c.postMultipart('/console/developers', none);
    expect(refused.status).toBe(422);
    expect(textOf(refused.html)).toContain('must name at least one payment method');
    expect((await acme()).defaultPaymentMethods).toEqual(['qrph', 'card']);
    const every = new FormData();
    every.set('action', 'payment-methods');
    every.set('methods_mode', 'default');
    await c.postMultipart('/console/developers', every);
    expect((await acme()).defaultPaymentMethods).toBeNull();
    const audit = await served.t.app.db.select().from(auditLog).where(eq(auditLog.action, 'payment_methods.changed'));
    expect(audit.map((e) => e.target)).toEqual(expect.arrayContaining(['qrph, card', '(every method)']));
  });
});
