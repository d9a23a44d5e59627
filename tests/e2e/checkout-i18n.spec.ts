import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe.ts';
import { CARD_EXPIRY } from '../support/cards.ts';

/**
 * The checkout as customers see it in English, Filipino and Spanish, at phone (390×844) and
 * desktop (1280×800) sizes: the language chosen by the switcher, Accept-Language or the link's
 * setting; the two-pane desktop layout with the Pay button in view; brand icons; the expired card
 * date and the attempts left. The screenshots are the ones docs/checkout.md and the README show.
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

/** A browser whose language is `locale` (Playwright sends it as Accept-Language). */
async function pageIn(browser: Browser, locale: string) {
  const context = await browser.newContext({ locale });
  return { context, page: await context.newPage() };
}

const htmlLang = async (baseURL: string, path: string, acceptLanguage: string) =>
  /<html lang="([^"]+)"/.exec(await (await fetch(`${baseURL}${path}`, { headers: { 'accept-language': acceptLanguage } })).text())?.[1];

for (const [lang, heading, pay, cardLabel] of [
  ['en', 'Acme Books', 'Pay ₱250.00', 'Card number'],
  ['fil', 'Acme Books', 'Magbayad ng ₱250.00', 'Card number'],
  ['es', 'Acme Books', 'Pagar 250,00 PHP', 'Número de tarjeta'],
] as const) {
  test(`payment page › ${lang}: words, <html lang>, Pay in view at 1280×800, axe clean at both sizes`, async ({ page }) => {
    await page.goto(`/pay/acme-books?lang=${lang}`);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expect(page.getByLabel(cardLabel)).toBeVisible();
    const button = page.getByRole('button', { name: pay });
    await expect(button).toBeEnabled();
    await page.setViewportSize({ width: 1280, height: 800 });
    const box = await button.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(800);
    // Two panes: the summary beside the form, not above it.
    const summary = await page.locator('.order').boundingBox();
    const form = await page.locator('.pay-pane').boundingBox();
    expect(summary!.x + summary!.width).toBeLessThanOrEqual(form!.x + 1);
    await shoot(page, `pay-${lang}`);
    // On a phone one column: the form below the summary.
    await page.setViewportSize({ width: 390, height: 844 });
    const phoneSummary = await page.locator('.order').boundingBox();
    const phoneForm = await page.locator('.pay-pane').boundingBox();
    expect(phoneForm!.y).toBeGreaterThanOrEqual(phoneSummary!.y + phoneSummary!.height - 1);
  });
}

test('payment page › a wide logo keeps its aspect ratio; accepted cards and the support address are shown', async ({ page }) => {
  await page.goto('/pay/acme-books');
  const logo = page.getByRole('img', { name: 'Acme Books logo' });
  const box = (await logo.boundingBox())!;
  expect(box.width / box.height).toBeGreaterThan(2.5); // a 120×32 wordmark, not a square tile
  await expect(page.getByTestId('accepted-cards')).toContainText('Accepted cards: Visa, Mastercard, American Express');
  await expect(page.getByRole('link', { name: 'help@acme.example' })).toHaveAttribute('href', 'mailto:help@acme.example');
});

test('language › Accept-Language by q-value beats the link setting; the switcher beats both and is remembered', async ({ browser, baseURL }) => {
  // The server negotiates q-values (the link acme-workshop is set to Filipino).
  expect(await htmlLang(baseURL!, '/pay/acme-workshop', 'de-DE, es-MX;q=0.8, fil;q=0.5')).toBe('es');
  expect(await htmlLang(baseURL!, '/pay/acme-workshop', 'en;q=0.3, tl;q=0.6')).toBe('fil');
  expect(await htmlLang(baseURL!, '/pay/acme-books', 'de')).toBe('en');
  const { context, page } = await pageIn(browser, 'es-MX');
  await page.goto('/pay/acme-workshop');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByLabel('Número de tarjeta')).toBeVisible();
  // The link asks for Filipino; a browser that names none of our languages gets the link's.
  const { context: german, page: dePage } = await pageIn(browser, 'de-DE');
  await dePage.goto('/pay/acme-workshop');
  await expect(dePage.locator('html')).toHaveAttribute('lang', 'fil');
  await expect(dePage.getByRole('button', { name: 'Magbayad ng ₱1,500.00' })).toBeVisible();
  // The merchant's own labels stay as written.
  await expect(dePage.getByLabel('Given name')).toBeVisible();
  await german.close();
  // The switcher: plain links, so no script is needed; the choice is kept for the next page.
  await page.getByRole('navigation', { name: 'Idioma' }).getByRole('link', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.goto('/pay/acme-books');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'English' })).toHaveAttribute('aria-current', 'true');
  await context.close();
});

test('card form › the detected brand shows as its icon, an expired date is caught in the browser (Spanish)', async ({ page }) => {
  await page.goto('/pay/acme-books?lang=es');
  let requests = 0;
  page.on('request', (r) => r.method() === 'POST' && requests++);
  // Every message of the form is in Spanish, the customer fields' too.
  await page.getByRole('button', { name: /^Pagar/ }).click();
  await expect(page.getByText('Introduce tu nombre')).toBeVisible();
  await expect(page.getByText('Introduce el número de tarjeta', { exact: true })).toBeVisible();
  await page.getByLabel('Correo electrónico').fill('juana@');
  await page.getByRole('button', { name: /^Pagar/ }).click();
  await expect(page.getByText('Introduce un correo electrónico como nombre@ejemplo.com')).toBeVisible();
  await page.getByLabel('Número de tarjeta').fill('4242 4242 4242 4242');
  await expect(page.locator('.brand .brand-icon')).toBeVisible();
  await expect(page.locator('.brand')).toContainText('Visa');
  await page.getByLabel('Nombre', { exact: true }).fill('Juana');
  await page.getByLabel('Apellidos').fill('Pérez');
  await page.getByLabel('Correo electrónico').fill('juana@example.com');
  await page.getByLabel('Fecha de vencimiento').fill('01/20');
  await page.getByLabel('Código de seguridad').fill('123');
  await page.getByLabel('Nombre en la tarjeta').fill('Juana Pérez');
  await page.getByRole('button', { name: /^Pagar/ }).click();
  await expect(page.getByText('Esta tarjeta está vencida: revisa la fecha de vencimiento')).toBeVisible();
  await expect(page.getByLabel('Fecha de vencimiento')).toBeFocused();
  expect(requests).toBe(0);
});

test('card form › after a decline the customer reads how many attempts are left (Filipino), then pays; receipt in Filipino', async ({ page }) => {
  await page.goto('/pay/acme-books?lang=fil');
  await page.getByLabel('Pangalan', { exact: true }).fill('Juan');
  await page.getByLabel('Apelyido').fill('Dela Cruz');
  await page.getByLabel('Email').fill('juan@example.com');
  await page.getByLabel('Card number').fill('4000000000000002'); // the sandbox declines it
  await page.getByLabel('Expiry date').fill(CARD_EXPIRY);
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByLabel('Pangalan sa card').fill('Juan Dela Cruz');
  await page.getByRole('button', { name: /^Magbayad/ }).click();
  await expect(page.getByRole('alert')).toHaveText(
    /^Tinanggihan ang iyong card\. Subukan ang ibang card o tawagan ang iyong bangko\. Makakasubok ka pa nang \d+ beses gamit ang link na ito\.$/,
  );
  await page.getByLabel('Card number').fill('4242424242424242');
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByRole('button', { name: /^Magbayad/ }).click();
  await expect(page.getByRole('heading', { name: 'Natanggap ang bayad' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fil');
  await expect(page.getByTestId('receipt-card')).toHaveText('Visa na nagtatapos sa 4242');
  await shoot(page, 'receipt-fil');
});

test('expired link › explained in the customer’s language, 410', async ({ page }) => {
  const res = await page.goto('/pay/acme-expired?lang=es');
  expect(res?.status()).toBe(410);
  await expect(page.getByRole('heading', { name: 'Este enlace de pago ha vencido' })).toBeVisible();
  await shoot(page, 'expired-es');
  await page.goto('/pay/acme-expired?lang=en');
  await expect(page.getByRole('heading', { name: 'This payment link has expired' })).toBeVisible();
  await shoot(page, 'expired-en');
});

test('dynamic-only link › opened in a browser, says what it is (Filipino)', async ({ page }) => {
  const res = await page.goto('/pay/acme-invoice?lang=fil');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Gamitin ang personal na payment link na ipinadala sa iyo' })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('card registration › the hosted page in Spanish by Accept-Language, accepted cards shown, axe clean', async ({ browser, baseURL }) => {
  const res = await fetch(`${baseURL}/api/v1/card-registrations`, {
    method: 'POST',
    headers: { authorization: 'e2e_token_acme_0123456789abcdefghijklmnop', 'content-type': 'application/json' },
    body: JSON.stringify({ customer: { name: 'Ana Reyes', email: 'ana@example.com' } }),
  });
  const { data } = (await res.json()) as { data: { link: string } };
  const { context, page } = await pageIn(browser, 'es-ES');
  await page.goto(new URL(data.link).pathname);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { name: 'Guarda tu tarjeta' })).toBeVisible();
  await expect(page.getByText('Se guardará para Ana Reyes.')).toBeVisible();
  await expect(page.getByTestId('accepted-cards')).toContainText('Tarjetas aceptadas');
  await expect(page.getByRole('button', { name: 'Guardar tarjeta' })).toBeEnabled();
  await shoot(page, 'register-es');
  await context.close();
});
