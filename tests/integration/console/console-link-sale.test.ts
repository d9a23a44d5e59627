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
    // The editor shows the Filipino choices line by line beside the English ones (a blank line: none).
    expect(editor.html).toMatch(/<textarea id="field-questions-0-options-fil"[^>]*>\nMaliit\n<\/textarea>/);
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
        'questions.0.options.fil': 'Maliit\n\nNapakalaki',
        'questions.0.options.es': '\nGrande',
        'questions.0.saved_options': saved!,
      }),
    );
    expect(res.status, textOf(res.html)).toBe(200);
    const question = (await row('api-made'))!.questions[0]!;
    expect(question.type === 'dropdown' && question.options).toEqual([
      { value: 's', label: { en: 'Small', fil: 'Maliit' } },
      { value: 'l', label: { en: 'Large', es: 'Grande' } },
      { value: 'extra_large', label: { en: 'Extra large', fil: 'Napakalaki' } },
    ]);
  });

  it('refuses a translated choice on a line with no English choice, naming its box, and writes nothing', async () => {
    const c = await owner();
    const res = await c.post('/console/links/new', form({ slug: 'yoga-stray', 'questions.0.options.es': 'Mañana\nTarde\nNoche' }));
    expect(res.status).toBe(422);
    expect(textOf(res.html)).toContain('Choices (Spanish) line 3 has no English choice on the same line');
    expect(res.html).toMatch(/id="field-questions-0-options-es"[^>]*aria-invalid="true"/);
    expect(await row('yoga-stray')).toBeUndefined();
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

describe('console › link editor › item images', () => {
  const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script><rect width="4" height="4" fill="#c00"/></svg>';
  const multipart = (fields: Record<string, string>, files: Record<string, File> = {}) => {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    for (const [k, f] of Object.entries(files)) body.set(k, f);
    return body;
  };

  it('uploads an image per item, shows it in the editor, keeps it on a later save, and removes it when asked', async () => {
    const c = await owner();
    const res = await c.postMultipart(
      '/console/links/new',
      multipart(form({ slug: 'yoga-pics' }), { 'items.0.image': new File([PNG], 'pass.png', { type: 'image/png' }) }),
      { from: '/console/links/new' },
    );
    expect(res.status, textOf(res.html)).toBe(303);
    const image = (await row('yoga-pics'))!.items[0]!.image;
    expect(image).toMatch(/^img_[0-9a-f]{32}$/);
    expect((await row('yoga-pics'))!.items[1]!.image).toBeUndefined();

    const editor = await c.get('/console/links/yoga-pics');
    expect(editor.html).toContain(`src="/assets/${image}"`);
    expect(editor.html).toContain(`name="items.0.saved_image" value="/assets/${image}"`);
    expect(editor.html).toMatch(/id="field-items-0-remove_image"/);

    const ids = { 'items.0.id': 'class_pass', 'items.2.id': 'mat_rental', 'questions.0.id': 'which_class', 'items.0.saved_image': `/assets/${image}` };
    const kept = await c.postMultipart('/console/links/yoga-pics', multipart(form({ ...ids, 'items.0.unit_amount': '155.00' })));
    expect(kept.status, textOf(kept.html)).toBe(200);
    expect((await row('yoga-pics'))!.items[0]!.image).toBe(image);

    const removed = await c.postMultipart('/console/links/yoga-pics', multipart(form({ ...ids, 'items.0.remove_image': 'on' })));
    expect(removed.status, textOf(removed.html)).toBe(200);
    expect((await row('yoga-pics'))!.items[0]!.image).toBeUndefined();
    expect((await fetch(`${served.server.url}/assets/${image}`)).status).toBe(404);
  });

  it('refuses a file that is not an image beside its item, keeps a good one chosen meanwhile for the next save, and writes nothing', async () => {
    const c = await owner();
    const res = await c.postMultipart(
      '/console/links/new',
      multipart(form({ slug: 'yoga-bad-pic' }), {
        'items.0.image': new File([PNG], 'pass.png', { type: 'image/png' }),
        'items.2.image': new File(['not an image'], 'mat.png', { type: 'image/png' }),
      }),
      { from: '/console/links/new' },
    );
    expect(res.status).toBe(422);
    // Item 3 of the form is the second kept item: its refusal is drawn beside the second row.
    expect(textOf(res.html)).toContain('Image: the image must be a PNG, JPEG, WebP or SVG image');
    expect(res.html).toMatch(/id="field-items-1-image"[^>]*aria-invalid="true"/);
    expect(res.html).toContain('data-testid="pending-image-0"');
    expect(await row('yoga-bad-pic')).toBeUndefined();

    const pending = /name="items\.0\.pending_image" value="([^"]*)"/.exec(res.html)?.[1];
    expect(pending).toMatch(/^data:application\/octet-stream;base64,/);
    const again = await c.postMultipart('/console/links/new', multipart(form({ slug: 'yoga-bad-pic', 'items.0.pending_image': pending! })), {
      from: '/console/links/new',
    });
    expect(again.status, textOf(again.html)).toBe(303);
    expect((await row('yoga-bad-pic'))!.items[0]!.image).toMatch(/^img_/);
  });

  it('previews an unsaved image, sanitised, as a data: URL beside its item', async () => {
    const c = await owner();
    const res = await c.postMultipart(
      '/console/links/preview',
      multipart(form(), { 'items.0.image': new File([SVG], 'pass.svg', { type: 'image/svg+xml' }) }),
      {
        from: '/console/links/new',
      },
    );
    expect(res.status).toBe(200);
    const img = /<img[^>]*class="sale-item-image"[^>]*>/.exec(res.html)?.[0] ?? '';
    expect(img).toContain('src="data:image/svg+xml;base64,');
    expect(img).toContain('alt="Class pass"');
    const svg = Buffer.from(/src="data:image\/svg\+xml;base64,([^"]+)"/.exec(img)![1]!, 'base64').toString('utf8');
    expect(svg).toContain('<rect');
    expect(svg).not.toContain('script');
  });
});
