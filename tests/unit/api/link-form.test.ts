import { describe, expect, it } from 'vitest';
import { formFieldOf, linkCreateInput, linkDraftSettings, linkForm, linkUpdateInput, newLinkForm, readLinkForm } from '../../../src/api/link-form.ts';
import type { Link } from '../../../src/db/schema.ts';
import { DomainError } from '../../../src/domain/errors.ts';

/** The console's link editor form, read into the very settings /api/v1/links takes. */
function form(fields: Record<string, string>, logo?: File) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  if (logo) f.set('logo', logo);
  return f;
}
const base = { title: 'Yoga', amount_mode: 'fixed', amount: '250', currency: 'php', brand_color: '#112233', active: 'on' };

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error.messages as Record<string, string[]>;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('link editor form › reading', () => {
  it('trims text, upper-cases the currency, and reads an unticked checkbox as false', async () => {
    const { values } = await readLinkForm(form({ ...base, title: '  Yoga  ', active: '' }));
    expect(values).toMatchObject({ title: 'Yoga', currency: 'PHP', active: false, amount_mode: 'fixed' });
  });

  it('keeps the default label and mode of a field the form did not send', async () => {
    const { values } = await readLinkForm(form({ ...base, 'label.customer.first_name': 'Given name' }));
    expect(values.labels['customer.first_name']).toBe('Given name');
    expect(values.labels['customer.last_name']).toBe('Last name');
    expect(values.modes['customer.contact.email']).toBe('customer');
    expect(values.modes['customer.contact.mobile']).toBe('hidden');
  });

  it('turns a chosen logo file into a data: URL, no file into "keep", and "remove" into null', async () => {
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });
    expect((await readLinkForm(form(base, png))).logo).toBe('data:application/octet-stream;base64,iVBORw==');
    expect((await readLinkForm(form(base, new File([], '')))).logo).toBeUndefined();
    expect((await readLinkForm(form({ ...base, remove_logo: 'on' }, png))).logo).toBeNull();
  });

  it('refuses a logo file over 512 KiB before reading it', async () => {
    const big = new File([new Uint8Array(512 * 1024 + 1)], 'big.png');
    const posted = await readLinkForm(form(base, big));
    expect(posted.logo).toBeUndefined();
    expect(posted.messages.logo).toEqual(['the logo is 513 KiB; at most 512 KiB is accepted']);
  });
});

describe('link editor form › the logo of a refused try', () => {
  const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });

  it('carries a chosen logo as pending, and uses a pending one when no new file is chosen', async () => {
    const first = await readLinkForm(form(base, png));
    expect(first.values.pending_logo).toBe('data:application/octet-stream;base64,iVBORw==');
    const again = await readLinkForm(form({ ...base, pending_logo: first.values.pending_logo }));
    expect(again.logo).toBe('data:application/octet-stream;base64,iVBORw==');
  });

  it('lets a new file or "remove" win over the pending logo', async () => {
    const other = new File([new Uint8Array([1, 2, 3])], 'other.png');
    const pending = 'data:application/octet-stream;base64,iVBORw==';
    expect((await readLinkForm(form({ ...base, pending_logo: pending }, other))).logo).toBe('data:application/octet-stream;base64,AQID');
    expect((await readLinkForm(form({ ...base, pending_logo: pending, remove_logo: 'on' }))).logo).toBeNull();
  });

  it('ignores a pending logo that is not base64 bytes of a data: URL (never a path to read) or is over 512 KiB', async () => {
    for (const pending of [
      '/etc/passwd',
      'data:image/svg+xml,<svg/>',
      'data:application/octet-stream;base64,../../x',
      `data:application/octet-stream;base64,${'A'.repeat(700_000)}`,
    ]) {
      const posted = await readLinkForm(form({ ...base, pending_logo: pending }));
      expect(posted.logo, pending.slice(0, 40)).toBeUndefined();
      expect(posted.values.pending_logo).toBe('');
    }
  });
});

describe('link editor form › the expiry in the merchant’s time zone', () => {
  it('reads the picker’s time in the posted zone and sends it as UTC', async () => {
    const posted = await readLinkForm(form({ ...base, expires_at: '2027-01-31T23:59', time_zone: 'Asia/Manila' }));
    expect(posted.values.expires_at).toBe('2027-01-31T15:59:00.000Z');
    expect(linkCreateInput(posted).expiresAt).toBe('2027-01-31T15:59:00.000Z');
  });

  it('reads a time without a zone as UTC, and leaves a time with its own offset as typed', async () => {
    expect((await readLinkForm(form({ ...base, expires_at: '2027-01-31T23:59' }))).values.expires_at).toBe('2027-01-31T23:59:00.000Z');
    expect((await readLinkForm(form({ ...base, expires_at: '2027-01-31T23:59:59+08:00', time_zone: 'Europe/Paris' }))).values.expires_at).toBe(
      '2027-01-31T23:59:59+08:00',
    );
  });

  it('refuses a zone it does not know, naming the expiry', async () => {
    const posted = await readLinkForm(form({ ...base, expires_at: '2027-01-31T23:59', time_zone: 'Mars/Olympus' }));
    expect(posted.messages.expires_at?.[0]).toMatch(/^cannot be read: the time zone "Mars\/Olympus" is not known/);
    expect(refusal(() => linkCreateInput(posted)).expires_at).toHaveLength(1);
  });
});

describe('link editor form › the brand colour’s hex field', () => {
  it('takes six hex digits with or without #, in any case, as #rrggbb', async () => {
    expect((await readLinkForm(form({ ...base, brand_color: '7C2D12' }))).values.brand_color).toBe('#7c2d12');
    expect((await readLinkForm(form({ ...base, brand_color: ' #ABCDEF ' }))).values.brand_color).toBe('#abcdef');
  });

  it('refuses anything else with the API’s words', async () => {
    const posted = await readLinkForm(form({ ...base, brand_color: '#12345' }));
    expect(refusal(() => linkCreateInput(posted)).brand_color).toEqual(['must be a colour such as #1a56db']);
  });
});

describe('link editor form › into the links editor’s settings, read by the API’s rules', () => {
  it('sends a fixed amount without bounds, and an open amount with its bounds only', async () => {
    const fixed = linkCreateInput(await readLinkForm(form({ ...base, min_amount: '10' })));
    expect(fixed).toMatchObject({ amount: '250', minAmount: null, maxAmount: null, currency: 'PHP' });
    const open = linkUpdateInput(await readLinkForm(form({ ...base, amount_mode: 'open', min_amount: '10', max_amount: '' })));
    expect(open).toMatchObject({ amount: null, minAmount: '10', maxAmount: null });
  });

  it('stores only labels that differ from the default, and every mode', async () => {
    const input = linkCreateInput(await readLinkForm(form({ ...base, 'label.customer.first_name': 'Given name', 'label.customer.last_name': 'Last name' })));
    expect(input.labels).toEqual({ 'customer.first_name': 'Given name' });
    expect(input.fields?.['customer.billing_address.zip']).toBe('hidden');
  });

  it('sends the slug only when one is typed, and a change keeps the logo unless one is chosen or removed', async () => {
    expect('slug' in linkCreateInput(await readLinkForm(form(base)))).toBe(false);
    expect(linkCreateInput(await readLinkForm(form({ ...base, slug: 'yoga' }))).slug).toBe('yoga');
    expect('logo' in linkUpdateInput(await readLinkForm(form(base)))).toBe(false);
    expect(linkUpdateInput(await readLinkForm(form({ ...base, remove_logo: 'on' }))).logo).toBeNull();
  });

  it('names each refused field by the API’s key, shown beside its input', async () => {
    const posted = await readLinkForm(form({ ...base, amount: '', title: '', max_payments: 'x', 'label.customer.first_name': 'x'.repeat(81) }));
    const messages = refusal(() => linkCreateInput(posted));
    expect(messages.amount).toEqual(['must be given for a fixed amount (or choose “The customer enters the amount”)']);
    expect(messages.title).toEqual(['must not be empty']);
    expect(messages.max_payments).toEqual(['must be a whole number']);
    expect(Object.keys(messages).map(formFieldOf)).toContain('label.customer.first_name');
  });
});

describe('link editor form › a saved link and the preview', () => {
  it('shows a saved link’s settings, defaults filled in, and reads back into the same settings', async () => {
    const link = {
      slug: 'tips',
      title: 'Tips',
      description: null,
      currency: 'PHP',
      amountMinor: null,
      minAmountMinor: 2000n,
      maxAmountMinor: null,
      brandColor: null,
      labels: {},
      fields: { 'customer.contact.mobile': 'customer' },
      callbackUrl: null,
      active: true,
      expiresAt: new Date('2027-01-31T15:59:59Z'),
      maxPayments: 3,
      successUrl: null,
      cancelUrl: null,
      locale: 'fil',
      questions: [],
      items: [],
      tip: null,
      promotionCodes: false,
    } as unknown as Link;
    const values = linkForm(link);
    expect(values).toMatchObject({
      amount_mode: 'open',
      min_amount: '20.00',
      brand_color: '#1d4ed8',
      expires_at: '2027-01-31T15:59:59.000Z',
      max_payments: '3',
    });
    expect(values.modes['customer.contact.mobile']).toBe('customer');
    const f = new FormData();
    for (const [k, v] of Object.entries({ ...values, active: 'on' })) if (typeof v === 'string') f.set(k, v);
    const input = linkUpdateInput(await readLinkForm(f));
    expect(input).toMatchObject({ minAmount: '20.00', maxPayments: 3, locale: 'fil', expiresAt: '2027-01-31T15:59:59.000Z' });
  });

  it('reads a saved link’s items, question, tip and codes back into the same settings', async () => {
    const link = {
      slug: 'yoga',
      title: 'Yoga',
      description: null,
      currency: 'PHP',
      amountMinor: null,
      minAmountMinor: null,
      maxAmountMinor: null,
      brandColor: null,
      labels: {},
      fields: {},
      callbackUrl: null,
      active: true,
      expiresAt: null,
      maxPayments: null,
      successUrl: null,
      cancelUrl: null,
      locale: null,
      questions: [{ id: 'student', type: 'number', label: { en: 'Student number', es: 'Número' }, required: true, min: 1 }],
      items: [{ id: 'pass', name: { en: 'Pass' }, unit_amount_minor: '15000', quantity: { min: 1, max: 5, default: 1 } }],
      tip: { presets: { kind: 'amount', values: ['2000', '5000'] }, custom: false },
      promotionCodes: true,
    } as unknown as Link;
    const values = linkForm(link);
    expect(values).toMatchObject({ amount_mode: 'items', tip_kind: 'amount', tip_values: '20.00, 50.00', tip_custom: false, promotion_codes: true });
    const f = new FormData();
    const flat = (prefix: string, v: unknown): [string, string][] =>
      typeof v === 'object' && v !== null ? Object.entries(v).flatMap(([k, x]) => flat(`${prefix}.${k}`, x)) : [[prefix, String(v)]];
    for (const [k, v] of Object.entries({ ...values, active: 'on' })) if (typeof v === 'string') f.set(k, v);
    // As a browser posts them: a ticked box as "on", an unticked one not at all.
    for (const [k, v] of [...flat('items', values.items), ...flat('questions', values.questions)]) if (v !== 'false') f.set(k, v === 'true' ? 'on' : v);
    f.set('tip.kind', values.tip_kind);
    f.set('tip.values', values.tip_values);
    f.set('promotion_codes', 'on');
    const input = linkUpdateInput(await readLinkForm(f));
    expect(input).toMatchObject({
      amount: null,
      items: [{ id: 'pass', name: { en: 'Pass' }, unit_amount: '150.00', quantity: { min: 1, max: 5, default: 1 } }],
      questions: [{ id: 'student', type: 'number', label: { en: 'Student number', es: 'Número' }, required: true, min: 1 }],
      tip: { presets: { kind: 'amount', values: ['20.00', '50.00'] }, custom: false },
      promotionCodes: true,
    });
  });

  it('pairs dropdown choices with their Filipino and Spanish lines, a blank line leaving one in English, and keeps saved values', async () => {
    const saved = JSON.stringify([{ value: 'am', label: { en: 'Morning', fil: 'Luma' } }]);
    const f = form({
      ...base,
      'questions.0.type': 'dropdown',
      'questions.0.label.en': 'When?',
      'questions.0.options': 'Morning\r\n\r\nEvening\nNight\n',
      'questions.0.options.fil': 'Umaga\n\nGabi',
      'questions.0.options.es': '\n\n\nNoche',
      'questions.0.saved_options': saved,
    });
    const input = linkUpdateInput(await readLinkForm(f));
    expect(input.questions?.[0]).toMatchObject({
      options: [
        { value: 'am', label: { en: 'Morning', fil: 'Umaga' } },
        { value: 'evening', label: { en: 'Evening', fil: 'Gabi' } },
        { value: 'night', label: { en: 'Night', es: 'Noche' } },
      ],
    });
  });

  it('refuses a translated choice with no English choice on its line, naming its box', async () => {
    const f = form({
      ...base,
      'questions.0.type': 'dropdown',
      'questions.0.label.en': 'When?',
      'questions.0.options': 'Morning\n\nNight',
      'questions.0.options.es': 'Mañana\nTarde',
    });
    const posted = await readLinkForm(f);
    const messages = refusal(() => linkUpdateInput(posted));
    expect(messages).toEqual({ 'questions.0.options.es': [expect.stringMatching(/^line 2 has no English choice on the same line/)] });
    expect(formFieldOf('questions.0.options.1.label.fil')).toBe('questions.0.options.fil');
    expect(formFieldOf('questions.0.options.1.value')).toBe('questions.0.options');
  });

  it('reads an item’s image file as a data: URL, "remove" as null, none as "keep", and refuses one over 512 KiB by its row', async () => {
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'a.png', { type: 'image/png' });
    const item = (i: number, name: string) => ({ [`items.${i}.name.en`]: name, [`items.${i}.unit_amount`]: '10' });
    const f = form({
      ...base,
      amount_mode: 'items',
      amount: '',
      ...item(0, 'A'),
      ...item(1, ''),
      ...item(2, 'C'),
      ...item(3, 'D'),
      'items.1.unit_amount': '',
      'items.3.remove_image': 'on',
    });
    f.set('items.0.image', png);
    const posted = await readLinkForm(f);
    const input = linkUpdateInput(posted);
    expect(input.items?.map((i) => i.image)).toEqual([
      `data:application/octet-stream;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64')}`,
      undefined,
      null,
    ]);
    expect(posted.values.items[0]!.pending_image).toMatch(/^data:application\/octet-stream;base64,/);

    const big = form({ ...base, amount_mode: 'items', amount: '', ...item(0, 'A'), ...item(1, ''), ...item(2, 'C'), 'items.1.unit_amount': '' });
    big.set('items.2.image', new File([new Uint8Array(512 * 1024 + 1)], 'big.png'));
    const refused = await readLinkForm(big);
    expect(refused.messages).toEqual({ 'items.1.image': ['the image is 513 KiB; at most 512 KiB is accepted'] });
  });

  it('hands the preview the form as typed, a number it cannot read left out', async () => {
    const draft = linkDraftSettings(await readLinkForm(form({ ...base, max_payments: 'many', 'label.customer.first_name': 'Given' })));
    expect(draft).toMatchObject({ maxPayments: null, amount: '250', logo: undefined });
    expect(draft.labels['customer.first_name']).toBe('Given');
  });

  it('starts a new link at a fixed amount in PHP with the default colour', () => {
    expect(newLinkForm()).toMatchObject({ amount_mode: 'fixed', currency: 'PHP', brand_color: '#1d4ed8', active: true });
  });
});
