import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe.ts';

/**
 * Paying by the methods of issue 32 on the sandbox, as customers see them, in English, Filipino and Spanish,
 * at phone (390×844) and desktop (1280×800) sizes (each journey in English and Filipino, the main ones in Spanish): the choice of method (links to the page with each, usable with
 * the keyboard and without script), QR Ph paid from a second page (the first moves to the receipt by
 * itself), an expired code renewed, GCash authorised and declined, online banking with a bank picked,
 * BillEase asking e-mail and phone. Screenshots into docs/checkout/, each page axe-checked.
 */
const docs = join(process.cwd(), 'docs', 'checkout');
const sizes = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

/** Both sizes into docs/checkout/<name>-<width>.png, with axe checked at each. */
async function shoot(page: Page, name: string) {
  mkdirSync(docs, { recursive: true });
  for (const size of sizes) {
    await page.setViewportSize(size);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: join(docs, `${name}-${size.width}.png`), fullPage: true });
  }
}

const methodChoice = (page: Page) => page.getByRole('navigation', { name: /How would you like to pay|Paano mo gustong magbayad|Cómo quieres pagar/ });

test('method choice › links in the merchant’s order, the chosen one marked; the keyboard reaches them; only its panel is drawn', async ({ page }) => {
  await page.goto('/pay/acme-books?lang=en');
  const choice = methodChoice(page);
  await expect(choice.getByRole('link')).toHaveCount(9);
  await expect(choice.getByRole('link', { name: /Card/ })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByLabel('Card number')).toBeVisible();
  await expect(page.getByTestId('method-form-gcash')).toHaveCount(0);
  // The keyboard: focus a method, Enter opens its panel.
  await choice.getByRole('link', { name: /GCash/ }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/method=gcash/);
  await expect(methodChoice(page).getByRole('link', { name: /GCash/ })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByRole('button', { name: 'Continue to GCash' })).toBeVisible();
  await expect(page.getByLabel('Card number')).toHaveCount(0);
  await methodChoice(page).getByRole('link', { name: /GCash/ }).focus();
  await shoot(page, 'methods-gcash-en');
});

test('method choice › works with JavaScript off: ?method= opens on a method, choosing another draws its panel', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/pay/acme-books?lang=fil&method=dob');
  await expect(methodChoice(page).getByRole('link', { name: /Online banking.*BPI/ })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByRole('group', { name: 'Ang iyong bangko' })).toBeVisible();
  await methodChoice(page).getByText('BillEase').click();
  await expect(page.getByTestId('method-form-billease')).toBeVisible();
  await expect(page.getByTestId('method-form-billease').getByLabel('Mobile number')).toBeVisible();
  await context.close();
});

const words = {
  en: { first: 'First name', last: 'Last name', email: 'Email', paid: 'Payment received', qr: 'Show QR code' },
  fil: { first: 'Pangalan', last: 'Apelyido', email: 'Email', paid: 'Natanggap ang bayad', qr: 'Ipakita ang QR code' },
  es: { first: 'Nombre', last: 'Apellidos', email: 'Correo electrónico', paid: 'Pago recibido', qr: 'Mostrar código QR' },
} as const;
type Lang = keyof typeof words;

/** Chooses `method` on the payment page and fills the customer's fields in its panel. */
async function choose(page: Page, method: string, lang: Lang) {
  await page.locator(`a.method-option[data-method="${method}"]`).click();
  const form = page.getByTestId(`method-form-${method}`);
  await expect(form).toBeVisible();
  await form.getByLabel(words[lang].first).fill('Juan');
  await form.getByLabel(words[lang].last).fill('Dela Cruz');
  await form.getByLabel(words[lang].email).fill('juan@example.com');
  return form;
}

/** A QR Ph code out for a new checkout of acme-books; the page showing it. */
async function showQr(page: Page, lang: Lang) {
  await page.goto(`/pay/acme-books?lang=${lang}`);
  const form = await choose(page, 'qrph', lang);
  await form.getByRole('button', { name: words[lang].qr }).click();
  await expect(page).toHaveURL(/\/checkout\/[\w-]+$/);
  await expect(page.getByTestId('qr-panel')).toBeVisible();
  return page.getByTestId('sandbox-scan').getAttribute('href');
}

test('QR Ph › es: the code in Spanish, paid from the scan page in Spanish: the first page moves to the receipt by itself', async ({ page, context }) => {
  test.setTimeout(120_000);
  const scan = await showQr(page, 'es');
  await expect(page.getByRole('img', { name: 'Código QR Ph para pagar 250,00 PHP a Acme Books' })).toBeVisible();
  await expect(page.getByTestId('qr-expiry')).toContainText(/Caduca en (29|30):\d\d/);
  await shoot(page, 'methods-qrph-code-es');
  // The customer's phone, in Spanish too: the sandbox's scan page says test mode in their language.
  const phone = await context.newPage();
  await phone.goto(`${scan!}?lang=es`);
  await expect(phone.getByRole('heading', { name: 'Escanea para pagar' })).toBeVisible();
  await expect(phone.getByTestId('sandbox-test-mode')).toContainText('Modo de prueba');
  await shoot(phone, 'methods-sandbox-scan-es');
  await phone.getByTestId('sandbox-approve').click();
  await expect(phone.getByTestId('sandbox-result')).toHaveAttribute('data-status', 'succeeded');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.es.paid, { timeout: 15_000 });
  await shoot(page, 'methods-qrph-paid-es');
});

test('GCash › es: authorised at the sandbox page in Spanish, back to the receipt', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/pay/acme-books?lang=es');
  const form = await choose(page, 'gcash', 'es');
  await form.getByRole('button', { name: 'Continuar a GCash' }).click();
  await expect(page).toHaveURL(/\/sandbox\/authorise\//);
  await expect(page.getByRole('heading', { name: 'Autoriza el pago' })).toBeVisible();
  await expect(page.getByTestId('sandbox-test-mode')).toContainText('Modo de prueba');
  await shoot(page, 'methods-sandbox-authorise-es');
  await page.getByTestId('sandbox-approve').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.es.paid);
});

test('GCash › es: declined at the sandbox, back on the page that says so in Spanish and offers the methods again', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/pay/acme-books?lang=es');
  const form = await choose(page, 'gcash', 'es');
  await form.getByRole('button', { name: 'Continuar a GCash' }).click();
  await page.getByTestId('sandbox-decline').click();
  await expect(page).toHaveURL(/\/checkout\/[\w-]+/);
  await expect(page.getByTestId('method-outcome')).toContainText('No se te ha cobrado.');
  await expect(methodChoice(page).getByRole('link', { name: /GCash/ })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('method-form-gcash').getByLabel(words.es.email)).toHaveValue('juan@example.com');
  await shoot(page, 'methods-gcash-declined-es');
});

/** What the journeys below read in English and in Filipino (src/i18n). */
const journeyWords = {
  en: {
    qrImage: 'QR Ph code to pay ₱250.00 to Acme Books',
    expiresIn: /Expires in (29|30):\d\d/,
    expired: 'This QR code has expired',
    renew: 'Get a new QR code',
    continueTo: (method: string) => `Continue to ${method}`,
    notCharged: 'You have not been charged.',
    bank: 'Your bank',
  },
  fil: {
    qrImage: 'QR Ph code para magbayad ng ₱250.00 sa Acme Books',
    expiresIn: /Mag-e-expire sa loob ng (29|30):\d\d/,
    expired: 'Nag-expire na ang QR code na ito',
    renew: 'Kumuha ng bagong QR code',
    continueTo: (method: string) => `Magpatuloy sa ${method}`,
    notCharged: 'Hindi ka sinisingil.',
    bank: 'Ang iyong bangko',
  },
} as const;

// Each journey of issue 32's "Done when" in English and in Filipino; Spanish above.
for (const lang of ['en', 'fil'] as const) {
  const w = journeyWords[lang];

  test(`QR Ph › ${lang}: the code, then paid from a second page: the first moves to the receipt by itself`, async ({ page, context }) => {
    test.setTimeout(120_000);
    const scan = await showQr(page, lang);
    await expect(page.getByRole('img', { name: w.qrImage })).toBeVisible();
    await expect(page.getByTestId('qr-expiry')).toContainText(w.expiresIn);
    await expect(page.getByTestId('qr-download')).toHaveAttribute('download', 'qrph-payment.png');
    await shoot(page, `methods-qrph-code-${lang}`);
    // The countdown moves without a reload.
    const before = await page.locator('[data-qr-clock]').textContent();
    await expect(page.locator('[data-qr-clock]')).not.toHaveText(before!, { timeout: 5000 });
    // The customer's phone: the sandbox's scan page.
    const phone = await context.newPage();
    await phone.goto(scan!);
    await expect(phone.getByTestId('sandbox-test-mode')).toBeVisible();
    await phone.getByTestId('sandbox-approve').click();
    await expect(phone.getByTestId('sandbox-result')).toHaveAttribute('data-status', 'succeeded');
    // Nobody touches the first page: its script sees the payment and opens the receipt.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(words[lang].paid, { timeout: 15_000 });
  });

  test(`QR Ph › ${lang}: an expired code says so and a new one is made on request`, async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const scan = await showQr(page, lang);
    const id = scan!.split('/').pop()!;
    // The acquirer ends the code (the sandbox's "let it expire", as PayMongo's qrph.expired).
    const ended = await page.request.post(`/sandbox/authorise/${id}/answer`, { form: { answer: 'expire' }, headers: { origin: baseURL! }, maxRedirects: 0 });
    expect(ended.status()).toBe(303);
    await expect(page.getByTestId('qr-expired')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('heading', { name: w.expired })).toBeVisible();
    await shoot(page, `methods-qrph-expired-${lang}`);
    await page.getByRole('button', { name: w.renew }).click();
    await expect(page.getByTestId('qr-panel')).toBeVisible();
    expect(await page.getByTestId('sandbox-scan').getAttribute('href')).not.toBe(scan);
  });

  test(`GCash › ${lang}: authorised at the sandbox, back to the receipt`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(`/pay/acme-books?lang=${lang}`);
    const form = await choose(page, 'gcash', lang);
    await form.getByRole('button', { name: w.continueTo('GCash') }).click();
    await expect(page).toHaveURL(/\/sandbox\/authorise\//);
    await expect(page.getByTestId('sandbox-test-mode')).toBeVisible();
    await expect(page.getByTestId('sandbox-amount')).toHaveText('₱250.00');
    await page.getByTestId('sandbox-approve').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(words[lang].paid);
  });

  test(`GCash › ${lang}: declined at the sandbox, back on the page that says so and offers the methods again`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(`/pay/acme-books?lang=${lang}`);
    const form = await choose(page, 'gcash', lang);
    await form.getByRole('button', { name: w.continueTo('GCash') }).click();
    await page.getByTestId('sandbox-decline').click();
    await expect(page).toHaveURL(/\/checkout\/[\w-]+/);
    await expect(page.getByTestId('method-outcome')).toContainText(w.notCharged);
    await expect(methodChoice(page).getByRole('link', { name: /GCash/ })).toHaveAttribute('aria-current', 'true');
    await expect(page.getByTestId('method-form-gcash').getByLabel(words[lang].email)).toHaveValue('juan@example.com');
    await shoot(page, `methods-gcash-declined-${lang}`);
    // Another way on the same checkout: the card form is there.
    await page.locator('a.method-option[data-method="card"]').click();
    await expect(page.getByLabel('Card number')).toBeVisible();
  });

  test(`online banking › ${lang}: the bank picked, authorised, the receipt`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(`/pay/acme-books?lang=${lang}`);
    const form = await choose(page, 'dob', lang);
    await form.getByRole('group', { name: w.bank }).getByText('UnionBank').click();
    await expect(form.getByRole('radio', { name: 'UnionBank' })).toBeChecked();
    // PayMongo's online banking needs the customer's phone, as the sandbox does.
    await form.getByLabel('Mobile number').fill('0917 123 4567');
    await shoot(page, `methods-dob-${lang}`);
    await form.getByRole('button', { name: w.continueTo('Online banking') }).click();
    await expect(page.getByTestId('sandbox-method')).toContainText('UnionBank');
    await page.getByTestId('sandbox-approve').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(words[lang].paid);
  });

  test(`BillEase › ${lang}: asks e-mail and phone on its panel, then authorised`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(`/pay/acme-books?lang=${lang}`);
    // The card form asks no phone; BillEase's panel does, and will not go on without it.
    await expect(page.locator('.card-form').getByLabel('Mobile number')).toHaveCount(0);
    const form = await choose(page, 'billease', lang);
    const phone = form.getByLabel('Mobile number');
    await expect(phone).toBeVisible();
    await shoot(page, `methods-billease-${lang}`);
    await form.getByRole('button', { name: w.continueTo('BillEase') }).click();
    expect(await phone.evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true);
    await expect(page).toHaveURL(/\/pay\/acme-books/);
    await phone.fill('+639171234567');
    await form.getByRole('button', { name: w.continueTo('BillEase') }).click();
    await expect(page.getByTestId('sandbox-method')).toContainText('BillEase');
    await page.getByTestId('sandbox-approve').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(words[lang].paid);
  });
}
