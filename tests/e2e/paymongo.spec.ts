import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { CARD_EXPIRY } from '../support/cards.ts';
import { holdIsland } from '../support/islands.ts';
import { shoot } from '../support/screenshots.ts';

/**
 * A merchant on PayMongo (tests/e2e/serve.mjs seeds "Lakbay Tours" against the in-repo fake of
 * PayMongo's API): the card goes from the browser to PayMongo, never to paylink; 3-D Secure
 * redirects to the provider's page and back; a decline is shown and the customer may try again.
 */

async function fill(page: Page, number: string) {
  await page.getByLabel('First name').fill('Maria');
  await page.getByLabel('Last name').fill('Santos');
  await page.getByLabel('Email').fill('maria@example.com');
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry date').fill(CARD_EXPIRY);
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Maria Santos');
}

/** Request bodies sent to paylink's own origin: none may carry the card number. */
function bodiesTo(page: Page, origin: string) {
  const bodies: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(origin)) bodies.push(r.postData() ?? '');
  });
  return bodies;
}

test('paymongo › pays with 3-D Secure: the card goes only to PayMongo, the customer lands on the receipt', async ({ page, baseURL }) => {
  const toPaylink = bodiesTo(page, baseURL!);
  await page.goto('/pay/lakbay-tour');
  await expect(page.getByRole('heading', { name: 'Island hopping tour' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Pay ₱1,200\.00$/ })).toBeEnabled();
  const csp = (await page.request.get('/pay/lakbay-tour')).headers()['content-security-policy'] ?? '';
  expect(csp).toMatch(/connect-src[^;]*'self'[^;]*http:\/\/127\.0\.0\.1:\d+/);
  await shoot(page, 'paymongo-form');
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  await fill(page, '4120 0000 0000 0007');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('heading', { name: '3-D Secure test page' })).toBeVisible();
  await page.getByRole('link', { name: 'Authorize' }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible({ timeout: 10_000 });
  expect(toPaylink.join('\n')).not.toContain('4120000000000007');
  expect(toPaylink.join('\n')).not.toContain('4120 0000 0000 0007');
});

/** Every request to paylink's own origin, its address and body: none may carry the card number or the security code. */
function everythingTo(page: Page, origin: string) {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(origin)) seen.push(`${r.method()} ${r.url()}\n${r.postData() ?? ''}`);
  });
  return seen;
}

/** The card inputs carry no name and sit in no form: nothing native could ever send them to paylink. */
async function cardInputsPostNowhere(page: Page) {
  for (const label of ['Card number', 'Security code', 'Expiry date']) {
    const input = page.getByLabel(label);
    await expect(input).toHaveCount(1);
    expect(await input.getAttribute('name')).toBeNull();
  }
  await expect(page.locator('form').filter({ has: page.getByLabel('Card number') })).toHaveCount(0);
  await expect(page.locator('form').filter({ has: page.getByLabel('Security code') })).toHaveCount(0);
}

test('paymongo › with JavaScript on, no request to paylink ever carries the card number or the security code', async ({ page, baseURL }) => {
  const toPaylink = everythingTo(page, baseURL!);
  await page.goto('/pay/lakbay-tour');
  await cardInputsPostNowhere(page);
  await fill(page, '4343 4343 4343 4345');
  await page.getByLabel('Security code').fill('987');
  // Enter in a card field pays through the island, as the button does.
  await page.getByLabel('Name on card').press('Enter');
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible({ timeout: 10_000 });
  const all = toPaylink.join('\n');
  expect(all).toContain('/provider'); // the start went to paylink, without the card
  expect(all).not.toMatch(/4343\s?4343|987/);
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('paymongo › the page offers no native submit that could post the card; nothing of it reaches paylink', async ({ page, baseURL }) => {
    const toPaylink = everythingTo(page, baseURL!);
    await page.goto('/pay/lakbay-tour');
    await cardInputsPostNowhere(page);
    const pay = page.getByRole('button', { name: /^Pay/ });
    await expect(pay).toBeDisabled();
    expect(await pay.getAttribute('type')).toBe('button');
    await fill(page, '4343 4343 4343 4345');
    await page.getByLabel('Security code').fill('987');
    await page.getByLabel('Card number').press('Enter');
    // As a browser extension might: the button enabled, then pressed.
    await pay.evaluate((button) => button.removeAttribute('disabled'));
    await pay.click();
    await page.waitForTimeout(500);
    await expect(page.getByLabel('Card number')).toHaveValue('4343 4343 4343 4345'); // still here: nothing was submitted
    const all = toPaylink.join('\n');
    expect(all).not.toMatch(/^POST /m);
    expect(all).not.toMatch(/4343|987/);
  });
});

test('paymongo › a declined card says why and the customer pays with another card', async ({ page, baseURL }) => {
  const toPaylink = bodiesTo(page, baseURL!);
  await page.goto('/pay/lakbay-tour');
  await fill(page, '4111 1111 1111 1111');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('alert')).toHaveText(/declined/);
  await expect(page.getByLabel('Card number')).toHaveValue('');
  await page.getByLabel('Card number').fill('4343 4343 4343 4345');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible({ timeout: 10_000 });
  expect(toPaylink.join('\n')).not.toMatch(/4111|4343/);
});

test('paymongo › what the customer types before the form comes alive is kept', async ({ page }) => {
  const release = await holdIsland(page, 'PaymongoCardForm');
  await page.goto('/pay/lakbay-tour');
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeDisabled();
  await fill(page, '4343 4343 4343 4345');
  release();
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeEnabled();
  await expect(page.getByLabel('First name')).toHaveValue('Maria');
  await expect(page.getByLabel('Card number')).toHaveValue('4343 4343 4343 4345');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible({ timeout: 10_000 });
});

test("paymongo › an amount typed under the acquirer's minimum is said under the amount", async ({ page }) => {
  await page.goto('/pay/lakbay-tip');
  const amount = page.getByLabel('Amount');
  await expect(page.getByText('In PHP, at least ₱20.00')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeEnabled();
  await amount.fill('10.00');
  await fill(page, '4343 4343 4343 4345');
  await page.getByRole('button', { name: /^Pay/ }).click();
  // The island runs the server's rule, the acquirer's minimum in it: refused before anything is sent.
  await expect(amount).toHaveAccessibleDescription(/The amount must be at least ₱20\.00/);
  // The card number and code are cleared after a refusal, as after a decline: typed again.
  await amount.fill('25.00');
  await fill(page, '4343 4343 4343 4345');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible({ timeout: 10_000 });
});

test("paymongo › the sandbox merchant's page still allows only its own origin", async ({ page }) => {
  const res = await page.request.get('/pay/acme-books');
  expect(res.headers()['content-security-policy']).toMatch(/connect-src 'self'(;|$)/);
});

test('paymongo › hosted checkout: the customer pays on PayMongo’s page and lands on the receipt', async ({ page }) => {
  await page.goto('/pay/lakbay-hosted');
  await expect(page.getByLabel('Card number')).toHaveCount(0);
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  await page.getByLabel('First name').fill('Maria');
  await page.getByLabel('Last name').fill('Santos');
  await page.getByLabel('Email').fill('maria@example.com');
  await page.getByRole('button', { name: /^Pay ₱800\.00$/ }).click();
  await expect(page.getByRole('heading', { name: 'PayMongo checkout (test)' })).toBeVisible();
  await page.getByLabel('Card number').fill('4343434343434345');
  await page.getByRole('button', { name: 'Pay now' }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible({ timeout: 10_000 });
});
