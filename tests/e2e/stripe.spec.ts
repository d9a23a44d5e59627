import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { holdIsland } from '../support/islands.ts';
import { SCREENSHOTS, shoot } from '../support/screenshots.ts';

/**
 * A merchant on Stripe (tests/e2e/serve.mjs seeds "Tala Studio" against the in-repo fake of Stripe's
 * API). The browser cannot reach Stripe, so js.stripe.com serves a stand-in for Stripe.js
 * (tests/e2e/fixtures/fake-stripe.js) and api.stripe.com is routed to the fake API: the page, its
 * policy and paylink's island are the real ones. The card goes to "Stripe", never to paylink.
 */
const fakeStripe = `http://127.0.0.1:${process.env.PAYLINK_E2E_STRIPE_PORT}`;
const stripeJs = readFileSync(join(process.cwd(), 'tests/e2e/fixtures/fake-stripe.js'), 'utf8');
const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, content-type' };

async function standInForStripe(page: Page) {
  await page.route('https://js.stripe.com/v3/', (route) => route.fulfill({ contentType: 'application/javascript', body: stripeJs }));
  await page.route('https://api.stripe.com/**', async (route) => {
    if (route.request().method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    const url = new URL(route.request().url());
    const response = await route.fetch({ url: `${fakeStripe}${url.pathname}${url.search}` });
    await route.fulfill({ response, headers: { ...response.headers(), ...cors } });
  });
}

/** Request bodies sent to paylink's own origin: none may carry the card number. */
function bodiesTo(page: Page, origin: string) {
  const bodies: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(origin)) bodies.push(r.postData() ?? '');
  });
  return bodies;
}

async function fillCustomer(page: Page) {
  await page.getByLabel('First name').fill('Liza');
  await page.getByLabel('Last name').fill('Reyes');
  await page.getByLabel('Email').fill('liza@example.com');
}

/** The card into the Element, then Pay. */
async function payWith(page: Page, card: string) {
  await page.getByLabel('Stripe card number').fill(card);
  await page.getByRole('button', { name: /^Pay/ }).click();
}

test('stripe › pays: the card goes only to Stripe, the customer lands on the receipt', async ({ page, baseURL }) => {
  await standInForStripe(page);
  const toPaylink = bodiesTo(page, baseURL!);
  await page.goto('/pay/tala-class');
  await expect(page.getByRole('heading', { name: 'Pottery class' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeEnabled();
  await fillCustomer(page);
  await page.getByLabel('Stripe card number').fill('4242 4242 4242 4242');
  await shoot(page, 'stripe-form');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible({ timeout: 10_000 });
  await page.screenshot({ path: join(SCREENSHOTS, 'stripe-receipt-1280.png'), fullPage: true });
  expect(toPaylink.join('\n')).not.toMatch(/4242/);
});

test('stripe › a declined card says why and the customer may try again', async ({ page }) => {
  await standInForStripe(page);
  await page.goto('/pay/tala-class');
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeEnabled();
  await fillCustomer(page);
  await payWith(page, '4000 0000 0000 0002');
  await expect(page.getByRole('alert')).toContainText(/declined/i);
  await payWith(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible({ timeout: 10_000 });
});

test('stripe › what the customer types before the form comes alive is kept', async ({ page }) => {
  await standInForStripe(page);
  const release = await holdIsland(page, 'StripeCardForm');
  await page.goto('/pay/tala-class');
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeDisabled();
  await fillCustomer(page);
  release();
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeEnabled();
  await expect(page.getByLabel('First name')).toHaveValue('Liza');
  await expect(page.getByLabel('Email')).toHaveValue('liza@example.com');
  await payWith(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible({ timeout: 10_000 });
});

test("stripe › an amount typed under the acquirer's minimum is said under the amount, and nothing is charged", async ({ page }) => {
  await standInForStripe(page);
  const confirmations: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/confirm')) confirmations.push(req.url());
  });
  await page.goto('/pay/tala-tip');
  await expect(page.getByText('In USD, at least $0.50')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeEnabled();
  const amount = page.getByLabel('Amount');
  await amount.fill('0.30');
  await fillCustomer(page);
  await payWith(page, '4242 4242 4242 4242');
  // The island runs the server's rule, the acquirer's minimum in it: refused before anything is sent.
  await expect(amount).toHaveAccessibleDescription(/The amount must be at least \$0\.50/);
  expect(confirmations).toEqual([]);
  await amount.fill('5.00');
  await payWith(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible({ timeout: 10_000 });
});

test('stripe › without Stripe.js the page says so and leaves no empty card box', async ({ page }) => {
  await page.route('https://js.stripe.com/v3/', (route) => route.abort());
  await page.goto('/pay/tala-class');
  await expect(page.getByRole('alert')).not.toBeEmpty();
  await expect(page.locator('.stripe-element')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeDisabled();
});

test('stripe › the Element is asked for cards and Link, with Apple Pay, Google Pay and Link shown where Stripe offers them', async ({ page }) => {
  await standInForStripe(page);
  await page.goto('/pay/tala-class');
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeEnabled();
  const asked = await page.evaluate(() => {
    const w = window as unknown as { __stripeElementsOptions: Record<string, unknown>; __stripePaymentElementOptions: Record<string, unknown> };
    return { elements: w.__stripeElementsOptions, element: w.__stripePaymentElementOptions };
  });
  expect(asked.elements).toMatchObject({ mode: 'payment', allowedPaymentMethodTypes: ['card', 'link'] });
  expect(asked.elements).not.toHaveProperty('paymentMethodTypes');
  expect(asked.element).toMatchObject({ wallets: { applePay: 'auto', googlePay: 'auto', link: 'auto' } });
});

test('stripe › paid with Link: the receipt shows, with no card line when Stripe names no card', async ({ page }) => {
  await standInForStripe(page);
  await page.goto('/pay/tala-class');
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeEnabled();
  await fillCustomer(page);
  await payWith(page, 'link');
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible({ timeout: 10_000 });
  await expect(page.getByTestId('transaction-id')).toBeVisible();
  await expect(page.getByTestId('receipt-card')).toHaveCount(0);
  await shoot(page, 'stripe-receipt-link');
});

test('stripe › paid with Apple Pay: a card payment, its card on the receipt', async ({ page }) => {
  await standInForStripe(page);
  await page.goto('/pay/tala-class');
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeEnabled();
  await fillCustomer(page);
  await payWith(page, 'applepay');
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible({ timeout: 10_000 });
  await expect(page.getByTestId('receipt-card')).toContainText('4242');
});
