import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { links } from '../../../src/db/schema.ts';
import { CONSOLE_USERS, TEST_TOKEN, useServedApp } from '../../support/app.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';

/** The console's link editor for what a link sells: items, questions, a tip and codes, saved through the API's rules, and previewed. */
const served = useServedApp();

async function owner() {
  const c = new ConsoleClient(served.server.url);
  const res = await c.signIn(CONSOLE_USERS.acmeOwner.email, CONSOLE_USERS.acmeOwner.password);
  expect(res.status, textOf(res.html)).toBe(303);
  return c;
}

const form = (over: Record<string, string> = {}): Record<string, string> => ({
  title: 'Yoga classes',
  description: '',
  amount_mode: 'items',
  amount: '',
  min_amount: '',
  max_amount: '',
  currency: 'PHP',
  brand_color: '#7c2d12',
  callback_url: '',
  active: 'on',
  expires_at: '',
  max_payments: '',
  success_url: '',
  cancel_url: '',
  locale: '',
  'items.0.name.en': 'Class pass',
  'items.0.name.fil': 'Pases',
  'items.0.name.es': '',
  'items.0.unit_amount': '150.00',
  'items.0.quantity.min': '1',
  'items.0.quantity.max': '10',
  'items.0.quantity.default': '2',
  'items.1.name.en': '',
  'items.1.unit_amount': '',
  'items.1.quantity.min': '1',
  'items.1.quantity.max': '1',
  'items.1.quantity.default': '1',
  'items.2.name.en': 'Mat rental',
  'items.2.unit_amount': '35.5',
  'items.2.quantity.min': '0',
  'items.2.quantity.max': '1',
  'items.2.quantity.default': '0',
  'questions.0.type': 'dropdown',
  'questions.0.label.en': 'Which class?',
  'questions.0.label.fil': 'Aling klase?',
  'questions.0.required': 'on',
  'questions.0.options': 'Morning flow\nEvening stretch',
  'questions.1.type': '',
  'questions.1.label.en': '',
  'tip.kind': 'percent',
  'tip.values': '10, 15%',
  'tip.custom': 'on',
  promotion_codes: 'on',
  ...over,
});

const row = async (slug: string) => (await served.t.app.db.select().from(links).where(eq(links.slug, slug)))[0];

describe('console › link editor › selling items', () => {
  it('saves items, a question, a tip and codes; the editor shows them again; a second save keeps them', async () => {
    const c = await owner();
    const res = await c.post('/console/links/new', form({ slug: 'yoga' }));
    expect(res.status, textOf(res.html)).toBe(303);
    const saved = (await row('yoga'))!;
    expect(saved.amountMinor).toBeNull();
    expect(saved.items).toEqual([
      { id: 'class_pass', name: { en: 'Class pass', fil: 'Pases' }, unit_amount_minor: '15000', quantity: { min: 1, max: 10, default: 2 } },
      { id: 'mat_rental', name: { en: 'Mat rental' }, unit_amount_minor: '3550', quantity: { min: 0, max: 1, default: 0 } },
    ]);
    expect(saved.questions).toEqual([
      {
        id: 'which_class',
        type: 'dropdown',
        label: { en: 'Which class?', fil: 'Aling klase?' },
        required: true,
        options: [
          { value: 'morning_flow', label: { en: 'Morning flow' } },
          { value: 'evening_stretch', label: { en: 'Evening stretch' } },
        ],
      },
    ]);
    expect(saved.tip).toEqual({ presets: { kind: 'percent', values: [10, 15] }, custom: true });
    expect(saved.promotionCodes).toBe(true);

    const editor = await c.get('/console/links/yoga');
    expect(editor.html).toMatch(/name="items\.0\.unit_amount"[^>]*value="150.00"/);
    expect(editor.html).toContain('value="class_pass"');
    expect(editor.html).toMatch(/id="amount-mode-items"[^>]*checked/);

    // Saved again as the editor shows it (ids kept), with the price changed and the tip removed.
    const again = await c.post(
      '/console/links/yoga',
      form({ 'items.0.id': 'class_pass', 'items.2.id': 'mat_rental', 'questions.0.id': 'which_class', 'items.0.unit_amount': '160', 'tip.kind': '' }),
    );
    expect(again.status).toBe(200);
    expect(textOf(again.html)).toContain('Saved.');
    const changed = (await row('yoga'))!;
    expect(changed.items.map((i) => i.unit_amount_minor)).toEqual(['16000', '3550']);
    expect(changed.tip).toBeNull();
    expect(changed.questions[0]!.id).toBe('which_class');
  });

  it('keeps a dropdown option’s value and translations from the API when the console saves the link again', async () => {
    const api = await fetch(`${served.server.url}/api/v1/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        slug: 'api-made',
        title: 'Made by API',
        currency: 'PHP',
        amount: '100.00',
        questions: [
          {
            id: 'size',
            type: 'dropdown',
            label: { en: 'Size' },
            options: [
              { value: 's', label: { en: 'Small', fil: 'Maliit' } },
              { value: 'l', label: { en: 'Large' } },
            ],
          },
        ],
      }),
    });
    expect(api.status).toBe(200);
    const c = await owner();
    const editor = await c.get('/console/links/api-made');
    const saved = /name="questions\.0\.saved_options" value="([^"]*)"/
      .exec(editor.html)?.[1]
      ?.replace(/&quot;/g, '"')
      .replace(/&#34;/g, '"');
    expect(saved).toBeDefined();
    const res = await c.post(
      '/console/links/api-made',
      form({
        amount_mode: 'fixed',
        amount: '100.00',
        'questions.0.id': 'size',
        'questions.0.type': 'dropdown',
        'questions.0.label.en': 'Size',
        'questions.0.label.fil': '',
        'questions.0.required': '',
        'questions.0.options': 'Small\nLarge\nExtra large',
        'questions.0.saved_options': saved!,
      }),
    );
    expect(res.status, textOf(res.html)).toBe(200);
    const question = (await row('api-made'))!.questions[0]!;
    expect(question.type === 'dropdown' && question.options).toEqual([
      { value: 's', label: { en: 'Small', fil: 'Maliit' } },
      { value: 'l', label: { en: 'Large' } },
      { value: 'extra_large', label: { en: 'Extra large' } },
    ]);
  });

  it('refuses a bad price and a bad tip beside their inputs, and writes nothing', async () => {
    const c = await owner();
    const res = await c.post('/console/links/new', form({ slug: 'yoga-bad', 'items.0.unit_amount': '1.005', 'tip.values': '10, abc' }));
    expect(res.status).toBe(422);
    const text = textOf(res.html);
    expect(text).toContain('Nothing was saved');
    expect(res.html).toMatch(/id="field-tip-values"[^>]*aria-invalid="true"/);
    expect(await row('yoga-bad')).toBeUndefined();

    const price = await c.post('/console/links/new', form({ slug: 'yoga-bad', 'items.0.unit_amount': '1.005' }));
    expect(price.status).toBe(422);
    expect(textOf(price.html)).toContain('Price PHP allows at most 2 decimal places');
    expect(price.html).toMatch(/id="field-items-0-unit_amount"[^>]*aria-invalid="true"/);

    const none = await c.post(
      '/console/links/new',
      form({ slug: 'yoga-bad', 'items.0.name.en': '', 'items.0.name.fil': '', 'items.0.unit_amount': '', 'items.2.name.en': '', 'items.2.unit_amount': '' }),
    );
    expect(none.status).toBe(422);
    expect(textOf(none.html)).toContain('Items must hold at least one item');
  });

  it('previews the items with their total, the tip choices, the question and the code field', async () => {
    const c = await owner();
    const res = await c.post('/console/links/preview', form(), { from: '/console/links/new' });
    expect(res.status).toBe(200);
    const text = textOf(res.html);
    expect(text).toContain('Class pass');
    expect(text).toContain('₱300.00'); // 2 × 150.00; the mat starts at 0
    expect(text).toContain('10%');
    expect(text).toContain('Which class?');
    expect(text).toContain('Promo code');
  });
});
