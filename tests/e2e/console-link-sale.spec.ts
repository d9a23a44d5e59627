import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe.ts';
import { CARD_EXPIRY } from '../support/cards.ts';
import { ACME_TOKEN, signInOwner } from '../support/e2e-console.ts';
import { SCREENSHOTS, shoot } from '../support/screenshots.ts';

/**
 * A link that sells items, asks a question, offers a tip and takes codes, built in the console
 * editor in Chromium: the preview follows each step before anything is saved, and the saved link
 * reads back through the API. Users come from tests/e2e/fixtures/seed.json.
 */

const preview = (page: Page) => page.locator('.preview-box iframe:not(.loading)').last().contentFrame();

/** Item pictures as a merchant would upload them (SVG: drawn the same in every run). */
const picture = (name: string, fill: string, mark: string) => ({
  name,
  mimeType: 'image/svg+xml',
  buffer: Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120" viewBox="0 0 120 120"><rect width="120" height="120" rx="16" fill="${fill}"/>${mark}</svg>`,
  ),
});
const PASS_PICTURE = picture(
  'pass.svg',
  '#fde68a',
  '<circle cx="60" cy="44" r="16" fill="#b45309"/><path d="M30 96c8-22 52-22 60 0" stroke="#b45309" stroke-width="10" fill="none"/>',
);
const MAT_PICTURE = picture('mat.svg', '#bbf7d0', '<rect x="22" y="30" width="76" height="60" rx="30" fill="#15803d"/>');

test('console link sale › an owner builds a link with a question, two items, a tip and codes, the preview following; a customer pays it in Filipino', async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow();
  await signInOwner(page);
  await page.goto('/console/links/new');
  await page.getByLabel('Title', { exact: true }).fill('Sunrise yoga');
  await page.getByLabel('Address (slug)').fill('sunrise-yoga');
  await page.getByLabel('The customer chooses items').check();

  const item1 = page.getByTestId('item-0');
  await item1.getByLabel('Name (English)').fill('Class pass');
  await item1.getByLabel('Name (Filipino)').fill('Pases sa klase');
  await item1.getByLabel('Price').fill('150.00');
  await item1.getByLabel('Most').fill('10');
  await item1.getByLabel('Starts at').fill('2');
  await item1.getByLabel('Image (optional)').setInputFiles(PASS_PICTURE);
  const item2 = page.getByTestId('item-1');
  await item2.getByLabel('Name (English)').fill('Mat rental');
  await item2.getByLabel('Name (Filipino)').fill('Upa ng banig');
  await item2.getByLabel('Price').fill('35.50');
  await item2.getByLabel('Image (optional)').setInputFiles(MAT_PICTURE);
  // The preview shows the unsaved pictures, checked and sanitised, beside their lines.
  await expect(preview(page).getByRole('img', { name: 'Class pass' })).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/);
  await expect(preview(page).getByRole('img', { name: 'Mat rental' })).toBeVisible();
  await expect(preview(page).getByTestId('sale')).toContainText('Class pass');
  await expect(preview(page).getByTestId('sale')).toContainText('Mat rental');
  await expect(preview(page).getByTestId('sale-total')).toHaveText('₱335.50');

  const question = page.getByTestId('question-0');
  await question.getByText('Question 1: not asked').click();
  await question.getByLabel('Type').selectOption('dropdown');
  await expect(question.getByLabel('Longest answer (characters)')).toBeHidden();
  await question.getByLabel('Question (English)').fill('Which class?');
  await question.getByLabel('Question (Filipino)').fill('Aling klase?');
  await question.getByLabel('Choices (English)').fill('Morning flow\nEvening stretch');
  await question.getByLabel('Choices (Filipino)').fill('Daloy sa umaga\nPag-unat sa gabi');
  await question.getByLabel('Choices (Spanish)').fill('\nEstiramiento nocturno');
  await question.getByLabel('Required').check();
  await expect(question.getByLabel('Least number')).toBeHidden();
  await expect(question.locator('summary')).toHaveText('Question 1: Which class?');
  await expect(preview(page).getByTestId('sale')).toContainText('Which class?');

  await page.getByLabel('Tip', { exact: true }).selectOption('percent');
  await page.getByLabel('Tip presets').fill('10, 15, 20');
  await page.getByLabel('Takes promotion codes').check();
  await expect(preview(page).getByTestId('sale')).toContainText('15%');
  await expect(preview(page).getByLabel('Promo code')).toBeVisible();

  await expectNoAxeViolations(page, { exclude: '.preview-box iframe' });
  await shoot(page, 'console-link-sale', { settleMs: 400 });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const part of ['items', 'questions', 'extras'])
      await page.locator(`#sale-${part}`).screenshot({ path: join(SCREENSHOTS, `console-link-sale-${part}-${width}.png`) });
    await page.locator('.preview-box').screenshot({ path: join(SCREENSHOTS, `console-link-sale-preview-${width}.png`) });
  }

  await page.getByRole('button', { name: 'Create link' }).click();
  await expect(page).toHaveURL(/\/console\/links\/sunrise-yoga\?created=1$/);
  await expect(page.getByTestId('item-0').getByLabel('Price')).toHaveValue('150.00');
  const res = await page.request.get('/api/v1/links/sunrise-yoga', { headers: { authorization: `Bearer ${ACME_TOKEN}` } });
  const link = (await res.json()).data.link;
  const imageUrl = expect.stringMatching(/\/assets\/img_[0-9a-f]{32}$/);
  expect(link.items).toEqual([
    {
      id: 'class_pass',
      name: { en: 'Class pass', fil: 'Pases sa klase' },
      unit_amount: '150.00',
      quantity: { min: 1, max: 10, default: 2 },
      image_url: imageUrl,
    },
    { id: 'mat_rental', name: { en: 'Mat rental', fil: 'Upa ng banig' }, unit_amount: '35.50', quantity: { min: 1, max: 1, default: 1 }, image_url: imageUrl },
  ]);
  expect(link.questions[0]).toMatchObject({ id: 'which_class', type: 'dropdown', required: true, label: { en: 'Which class?', fil: 'Aling klase?' } });
  expect(link.questions[0].options).toEqual([
    { value: 'morning_flow', label: { en: 'Morning flow', fil: 'Daloy sa umaga' } },
    { value: 'evening_stretch', label: { en: 'Evening stretch', fil: 'Pag-unat sa gabi', es: 'Estiramiento nocturno' } },
  ]);
  // The saved editor shows each item's picture beside its file input.
  await expect(page.getByTestId('item-0').getByRole('img', { name: 'Current image of Class pass' })).toBeVisible();
  await expect(page.getByTestId('item-0').getByLabel('Remove the image')).not.toBeChecked();
  await expectNoAxeViolations(page, { exclude: '.preview-box iframe' });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId('item-0').screenshot({ path: join(SCREENSHOTS, `console-link-sale-item-image-${width}.png`) });
  }
  expect(link.tip).toEqual({ presets: { kind: 'percent', values: [10, 15, 20] }, custom: true });
  expect(link.promotion_codes).toBe(true);

  // The customer's side: a code made through the API, the page in Filipino at both widths, paid by card.
  const promo = await page.request.post('/api/v1/promotions', {
    headers: { authorization: `Bearer ${ACME_TOKEN}` },
    data: { code: 'SUNRISE10', discount: { kind: 'percent', percent: 10 } },
  });
  expect((await promo.json()).data.status_code).toBe('OK.06.00');
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    const customer = await (await browser.newContext({ viewport, baseURL })).newPage();
    await customer.goto('/pay/sunrise-yoga?lang=fil');
    await expect(customer.getByText('Pases sa klase')).toBeVisible();
    // Each line's picture: named by the item in Filipino, in its fixed box, actually drawn.
    const pass = customer.getByRole('img', { name: 'Pases sa klase' });
    await pass.scrollIntoViewIfNeeded();
    await expect(pass).toHaveJSProperty('complete', true);
    expect(
      await pass.evaluate((img: HTMLImageElement) => [img.naturalWidth > 0, img.getBoundingClientRect().width, img.getBoundingClientRect().height]),
    ).toEqual([true, 56, 56]);
    await expect(customer.getByRole('img', { name: 'Upa ng banig' })).toHaveAttribute('loading', 'lazy');
    // 2 × ₱150.00 + ₱35.50; 10 % off is ₱33.55; a 10 % tip of ₱301.95 is ₱30.20 (half up).
    await expect(customer.getByTestId('sale-total')).toHaveText('₱335.50');
    await customer.getByLabel('Promo code').fill('sunrise10');
    await customer.getByRole('button', { name: 'Gamitin' }).click();
    await expect(customer.getByTestId('sale-summary')).toContainText('Diskwento (SUNRISE10)');
    await customer.getByLabel('10%').check();
    await expect(customer.getByTestId('sale-total')).toHaveText('₱332.15');
    // The choices in Filipino; the answer is stored by the choice's value.
    await customer.getByLabel('Aling klase?').selectOption({ label: 'Pag-unat sa gabi' });
    await expectNoAxeViolations(customer);
    await customer.screenshot({ path: join(SCREENSHOTS, `console-link-sale-paid-fil-${viewport.width}.png`), fullPage: true });
    await customer.getByLabel('Pangalan', { exact: false }).first().fill('Ligaya');
    for (const [label, value] of [
      ['Apelyido', 'Dimaculangan'],
      ['Email', 'ligaya.yoga@example.com'],
      ['Card number', '4242 4242 4242 4242'],
      ['Expiry date', CARD_EXPIRY],
      ['Security code', '123'],
    ] as const) {
      const field = customer.getByLabel(label, { exact: false }).first();
      if (await field.count()) await field.fill(value);
    }
    const onCard = customer.getByLabel('Pangalan sa card', { exact: false });
    if (await onCard.count()) await onCard.fill('Ligaya Dimaculangan');
    await customer.getByRole('button', { name: 'Magbayad', exact: true }).click();
    await expect(customer).toHaveURL(/\/checkout\//);
    const txn = (await customer.getByTestId('transaction-id').textContent())!.trim();
    const paid = (await (await page.request.get(`/api/v1/transactions/${txn}`, { headers: { authorization: `Bearer ${ACME_TOKEN}` } })).json()).data
      .transaction;
    expect(paid.amount).toBe('332.15');
    expect(paid.sale).toMatchObject({
      subtotal: '335.50',
      discount: { code: 'SUNRISE10', amount: '33.55' },
      tip: '30.20',
      answers: { which_class: 'evening_stretch' },
    });
    await customer.context().close();
  }
});
