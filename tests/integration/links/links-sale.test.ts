import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { checkoutSessions, links } from '../../../src/db/schema.ts';
import { call, defaultSeed, provision, TEST_TOKEN, useServedApp } from '../../support/app.ts';

/**
 * Links that sell items, ask questions, offer a tip and take promotion codes, through the links API,
 * the dynamic POST and the seed file: decimals at the edge, minor units stored, refusals per field.
 */
const served = useServedApp();
const api = (method: string, path: string, body?: unknown) => call(served.server.url, method, path, { body });
const row = async (slug: string) => (await served.t.app.db.select().from(links).where(eq(links.slug, slug)))[0]!;

const question = {
  id: 'class',
  type: 'dropdown',
  label: { en: 'Which class?', fil: 'Aling klase?' },
  help: { en: 'Pick one' },
  required: true,
  options: [
    { value: 'morning', label: { en: 'Morning' } },
    { value: 'evening', label: { en: 'Evening' } },
  ],
};
const sale = {
  questions: [question, { id: 'student_no', type: 'text', label: { en: 'Student number' }, max_length: 20 }],
  items: [
    { id: 'pass', name: { en: 'Class pass', es: 'Pase' }, unit_amount: '150.00', quantity: { min: 1, max: 10, default: 1 } },
    { id: 'mat', name: { en: 'Mat rental' }, unit_amount: 35.5 },
  ],
  tip: { presets: { kind: 'amount', values: ['20.00', 50] }, custom: false },
  promotion_codes: true,
};

describe('links › selling items by API', () => {
  it('creates, reads and changes a link with questions, items, a tip and codes: decimals at the edge, minor units stored', async () => {
    const res = await api('POST', '/api/v1/links', { slug: 'yoga', title: 'Yoga', currency: 'PHP', ...sale });
    expect(res.status, res.text).toBe(200);
    const link = res.json.data.link;
    expect(link).toMatchObject({
      amount: null,
      promotion_codes: true,
      tip: { presets: { kind: 'amount', values: ['20.00', '50.00'] }, custom: false },
      items: [
        { id: 'pass', name: { en: 'Class pass', es: 'Pase' }, unit_amount: '150.00', quantity: { min: 1, max: 10, default: 1 } },
        { id: 'mat', name: { en: 'Mat rental' }, unit_amount: '35.50', quantity: { min: 1, max: 1, default: 1 } },
      ],
    });
    expect(link.questions).toEqual([{ ...question }, { id: 'student_no', type: 'text', label: { en: 'Student number' }, max_length: 20, required: false }]);
    const stored = await row('yoga');
    expect(stored.items.map((i) => i.unit_amount_minor)).toEqual(['15000', '3550']);
    expect(stored.tip).toEqual({ presets: { kind: 'amount', values: ['2000', '5000'] }, custom: false });
    expect((await api('GET', '/api/v1/links/yoga')).json.data.link).toEqual(link);

    const changed = await api('PATCH', '/api/v1/links/yoga', {
      items: [{ id: 'pass', name: { en: 'Class pass' }, unit_amount: '160' }],
      tip: { presets: { kind: 'percent', values: [10, 15] } },
      questions: [],
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json.data.link).toMatchObject({
      items: [{ id: 'pass', unit_amount: '160.00' }],
      tip: { presets: { kind: 'percent', values: [10, 15] }, custom: true },
      questions: [],
      promotion_codes: true,
    });
    const cleared = await api('PATCH', '/api/v1/links/yoga', { items: [], tip: null, promotion_codes: false, amount: '99.00' });
    expect(cleared.json.data.link).toMatchObject({ items: [], tip: null, promotion_codes: false, amount: '99.00' });
  });

  it('a link made before keeps working: its view shows no items, no questions, no tip', async () => {
    const res = await api('GET', '/api/v1/links/acme-books');
    expect(res.json.data.link).toMatchObject({ amount: '250.00', questions: [], items: [], tip: null, promotion_codes: false });
  });

  it('items given to a fixed-amount link replace its amount; an amount given to a link with items is refused', async () => {
    const res = await api('PATCH', '/api/v1/links/acme-books', { items: sale.items });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.link).toMatchObject({ amount: null, min_amount: null, max_amount: null });
    const refused = await api('PATCH', '/api/v1/links/acme-books', { amount: '10.00' });
    expect(refused.status).toBe(422);
    expect(refused.json.messages.amount[0]).toMatch(/sells items has no single amount/);
    expect((await row('acme-books')).amountMinor).toBeNull();
  });

  it('refuses amount and items together, naming each bad field, and writes nothing', async () => {
    const res = await api('POST', '/api/v1/links', {
      slug: 'bad-sale',
      title: 'Bad',
      currency: 'JPY',
      amount: '1000',
      min_amount: '5',
      items: [
        { id: 'a', name: { en: 'A' }, unit_amount: '150.50' },
        { id: 'b', name: { en: 'B' }, unit_amount: '0' },
      ],
      tip: { presets: { kind: 'amount', values: ['1.5'] } },
    });
    expect(res.status).toBe(422);
    const { messages } = res.json;
    expect(messages['items.0.unit_amount']).toEqual(['JPY has no minor unit: give a whole number']);
    expect(messages['items.1.unit_amount']).toEqual(['must be greater than zero']);
    expect(messages['tip.presets.values.0']).toEqual(['JPY has no minor unit: give a whole number']);
    expect(messages.amount).toBeDefined();
    expect(messages.min_amount).toBeDefined();
    expect(res.json.messages).not.toHaveProperty('items.0.unit_amount_minor');
    expect(await served.t.app.db.select().from(links).where(eq(links.slug, 'bad-sale'))).toEqual([]);

    // The shape of a question or an item is the API's schema's to refuse, before any price is read.
    const asked = await api('POST', '/api/v1/links', {
      slug: 'bad-sale',
      title: 'Bad',
      currency: 'PHP',
      questions: [{ id: 'Bad Id', type: 'text', label: { en: '' } }],
      items: [{ id: 'c', name: { en: 'C' }, unit_amount: '100', quantity: { min: 3, max: 2, default: 1 } }],
    });
    expect(asked.status).toBe(422);
    expect(Object.keys(asked.json.messages).sort()).toEqual(['items.0.quantity', 'questions.0.id', 'questions.0.label.en']);

    const both = await api('POST', '/api/v1/links', {
      slug: 'bad-sale',
      title: 'Bad',
      currency: 'JPY',
      amount: '1000',
      items: [{ id: 'a', name: { en: 'A' }, unit_amount: '1500' }],
    });
    expect(both.status).toBe(422);
    expect(Object.keys(both.json.messages)).toEqual(['amount']);
  });

  it('keeps a JPY price whole: "1500" is 1500 yen, stored as 1500 minor units', async () => {
    const res = await api('POST', '/api/v1/links', {
      slug: 'yen',
      title: 'Yen',
      currency: 'JPY',
      items: [{ id: 'tea', name: { en: 'Tea' }, unit_amount: '1500' }],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.link.items[0].unit_amount).toBe('1500');
    expect((await row('yen')).items[0]!.unit_amount_minor).toBe('1500');
  });

  it('refuses unknown fields on an item by name, and an image that is not a data: URL', async () => {
    const res = await api('POST', '/api/v1/links', {
      title: 'Img',
      currency: 'PHP',
      items: [
        { id: 'a', name: { en: 'A' }, unit_amount: '1', colour: 'red' },
        { id: 'b', name: { en: 'B' }, unit_amount: '1', image: 'photos/b.png' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.json.messages['items.0.colour']).toEqual(['is not a recognised field']);
    expect(res.json.messages['items.1.image']).toEqual(['must be a data: URL (data:image/png;base64,…)']);
  });
});

describe('links › dynamic POST with items', () => {
  it('stores the items sent (minor units) on the checkout; a body without items works as before', async () => {
    const post = (body: Record<string, unknown>) => call(served.server.url, 'POST', '/pay/acme-open', { token: null, body: { key: TEST_TOKEN, ...body } });
    const res = await post({
      payment: { currency: 'PHP' },
      items: [{ id: 'book', name: { en: 'Book' }, unit_amount: '120.25', quantity: { min: 1, max: 3, default: 2 } }],
    });
    expect(res.status, res.text).toBe(200);
    const sessions = await served.t.app.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.linkId, (await row('acme-open')).id));
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.items).toEqual([{ id: 'book', name: { en: 'Book' }, unit_amount_minor: '12025', quantity: { min: 1, max: 3, default: 2 } }]);
    expect(sessions[0]!.amountMinor).toBeNull();

    const plain = await post({ payment: { amount: '10.00' } });
    expect(plain.status, plain.text).toBe(200);
    const pictured = await post({
      payment: { currency: 'PHP' },
      items: [{ id: 'x', name: { en: 'X' }, unit_amount: '1.00', image: 'data:image/png;base64,AAAA' }],
    });
    expect(pictured.status).toBe(422);
    expect(pictured.json.messages['items.0.image']).toEqual(['is not a recognised field']);
    const refused = await post({ payment: { amount: '10.00' }, items: [{ id: 'x', name: { en: 'X' }, unit_amount: '1.001' }] });
    expect(refused.status).toBe(422);
    expect(refused.json.messages).toMatchObject({
      'payment.amount': [expect.stringMatching(/not be sent together with items/)],
      'items.0.unit_amount': ['PHP allows at most 2 decimal places'],
    });
  });
});

describe('links › seed file', () => {
  it('applies a seed link with items, a tip and questions, and refuses a bad price naming it', async () => {
    const seed = defaultSeed();
    seed.integrators[0]!.links.push({
      slug: 'seeded-sale',
      title: 'Seeded',
      currency: 'PHP',
      labels: {},
      fields: {},
      active: true,
      ...(sale as object),
    } as never);
    await provision(served.t, seed);
    const link = (await api('GET', '/api/v1/links/seeded-sale')).json.data.link;
    expect(link).toMatchObject({
      items: [{ unit_amount: '150.00' }, { unit_amount: '35.50' }],
      promotion_codes: true,
      tip: { presets: { values: ['20.00', '50.00'] } },
    });
    expect(link.questions).toHaveLength(2);

    const bad = defaultSeed();
    bad.integrators[0]!.links.push({
      slug: 'seeded-bad',
      title: 'Bad',
      currency: 'PHP',
      labels: {},
      fields: {},
      active: true,
      items: [{ id: 'a', name: { en: 'A' }, unit_amount: '1.999' }],
    } as never);
    await expect(provision(served.t, bad)).rejects.toThrow(/items\.0\.unit_amount: PHP allows at most 2 decimal places/);
  });
});
