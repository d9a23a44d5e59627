import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe.ts';
import { CARD_EXPIRY } from '../support/cards.ts';
import { holdIsland } from '../support/islands.ts';
import { SCREENSHOTS, shoot } from '../support/screenshots.ts';

/**
 * The customer's side, in Debian's Chromium against the built server: static and dynamic links
 * paid with test cards, declines, receipts, expired and paid sessions, accessibility (axe, 0
 * violations), keyboard-only use, same-origin requests only, and a phone screenshot to review.
 */
const KEY = 'e2e_token_acme_0123456789abcdefghijklmnop';

/** Every request the page makes must go to our own origin. */
function sameOriginOnly(page: Page, origin: string) {
  const offOrigin: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:')) offOrigin.push(url);
  });
  return offOrigin;
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry date').fill(CARD_EXPIRY);
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Juan Dela Cruz');
}

async function fillCustomer(page: Page) {
  await page.getByLabel('First name').fill('Juan');
  await page.getByLabel('Last name').fill('Dela Cruz');
  await page.getByLabel('Email').fill('juan@example.com');
}

async function dynamicLink(baseURL: string, slug: string, body: Record<string, unknown>) {
  const res = await fetch(`${baseURL}/pay/${slug}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: KEY, ...body }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { link: string }).link;
}

test('static link › pays with 4242 and lands on the receipt, with no third-party request', async ({ page, baseURL }) => {
  const offOrigin = sameOriginOnly(page, baseURL!);
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto('/pay/acme-books');
  await expect(page.getByRole('heading', { name: 'Acme Books' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Pay ₱250\.00$/ })).toBeEnabled();
  await expectNoAxeViolations(page);
  await fillCustomer(page);
  await page.getByLabel('Card number').fill('4242424242424242');
  await expect(page.getByLabel('Card number')).toHaveValue('4242 4242 4242 4242');
  // The detected brand: our icon, and its name for screen readers.
  await expect(page.locator('.brand .brand-icon')).toBeVisible();
  await expect(page.locator('.brand .visually-hidden')).toHaveText('Visa');
  await page.getByLabel('Expiry date').fill(CARD_EXPIRY.replace('/', ''));
  await expect(page.getByLabel('Expiry date')).toHaveValue(CARD_EXPIRY.replace('/', ' / '));
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Juan Dela Cruz');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await expect(page).toHaveURL(/\/checkout\/[A-Za-z0-9_-]{43}$/);
  await expect(page.getByTestId('transaction-id')).toHaveText(/^txn_[0-9a-f]{32}$/);
  await expect(page.getByTestId('receipt-card')).toHaveText('Visa ending in 4242');
  await expect(page.getByTestId('receipt-amount')).toHaveText('₱250.00');
  await expectNoAxeViolations(page);
  const txn = await page.getByTestId('transaction-id').textContent();
  await page.reload();
  await expect(page.getByTestId('transaction-id')).toHaveText(txn!);
  expect(await page.content()).not.toContain('4242 4242 4242 4242');
  expect(offOrigin).toEqual([]);
  expect(errors.filter((e) => /Content Security Policy|Refused/.test(e))).toEqual([]);
});

test('static link › a decline is shown in plain words and a retry with 4242 succeeds', async ({ page }) => {
  await page.goto('/pay/acme-books');
  await fillCustomer(page);
  await fillCard(page, '4000000000000002');
  await page.getByRole('button', { name: /^Pay/ }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Your card was declined');
  await expect(page.getByLabel('Card number')).toHaveValue('');
  await expect(page.getByLabel('Security code')).toHaveValue('');
  await expectNoAxeViolations(page);
  await page.getByLabel('Card number').fill('4242424242424242');
  // The alert spoke of the declined card: it goes once another number is typed.
  await expect(page.getByText(/Your card was declined/)).toHaveCount(0);
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
});

test('static link › inline errors are linked to their inputs', async ({ page }) => {
  await page.goto('/pay/acme-books');
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeEnabled();
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Card number').fill('4242424242424241');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByLabel('First name')).toBeFocused();
  await expect(page.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Enter an email address such as name@example.com');
  await expect(page.getByLabel('Card number')).toHaveAccessibleDescription(/This card number is not valid/);
  await expectNoAxeViolations(page);
  // An error under the expiry date moves neither it nor the security code beside it.
  const top = async (label: string) => (await page.getByLabel(label).boundingBox())!.y;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByLabel('Expiry date').fill('');
    await page.getByLabel('Expiry date').fill('01 / 20');
    await page.getByLabel('Security code').focus();
    await expect(page.getByLabel('Expiry date')).toHaveAttribute('aria-invalid', 'true');
    expect(await top('Security code'), `width ${width}`).toBe(await top('Expiry date'));
  }
  await shoot(page, 'checkout-expiry-error');
});

test('static link › what the customer types before the form comes alive is kept', async ({ page }) => {
  const release = await holdIsland(page, 'CardForm');
  await page.goto('/pay/acme-books');
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeDisabled();
  await fillCustomer(page);
  await fillCard(page, '4242424242424242');
  release();
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeEnabled();
  await expect(page.getByLabel('Email')).toHaveValue('juan@example.com');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
});

test('static link › the whole flow works with the keyboard alone', async ({ page }) => {
  await page.goto('/pay/acme-books');
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeEnabled();
  // The way to pay comes first (the sandbox offers nine, card chosen), then the card form.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: /^Card/ })).toBeFocused();
  for (let i = 0; i < 9; i++) await page.keyboard.press('Tab');
  await expect(page.getByLabel('First name')).toBeFocused();
  for (const text of ['Ana', 'Reyes', 'ana@example.com', '4242424242424242', CARD_EXPIRY.replace('/', ''), '123', 'Ana Reyes']) {
    await page.keyboard.type(text);
    await page.keyboard.press('Tab');
  }
  await expect(page.getByRole('button', { name: /^Pay ₱250\.00$/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
});

test('static link › custom labels, brand colour and logo; a phone screenshot for review', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/pay/acme-workshop');
  await expect(page.getByRole('img', { name: 'Acme Books logo' })).toBeVisible();
  expect(await page.getByRole('img', { name: 'Acme Books logo' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  for (const label of ['Given name', 'Family name', 'Email', 'Phone (with country code)', 'Country'])
    await expect(page.getByLabel(label, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Pay ₱1,500\.00$/ })).toBeVisible();
  await expect(page.locator('header.merchant')).toHaveCSS('background-color', 'rgb(124, 45, 18)');
  await expect(page.getByRole('button', { name: /^Pay/ })).toHaveCSS('color', 'rgb(255, 255, 255)');
  await expectNoAxeViolations(page);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, 'checkout-phone.png'), fullPage: true });
  await page.getByLabel('Given name').fill('Ana');
  await page.getByLabel('Family name').fill('Reyes');
  await page.getByLabel('Email').fill('ana@example.com');
  await page.getByLabel('Phone (with country code)').fill('+63 917 123 4567');
  await page.getByLabel('Country', { exact: true }).selectOption('PH');
  await fillCard(page, '5555555555554444');
  await expect(page.locator('.brand')).toHaveText('Mastercard');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await page.screenshot({ path: join(SCREENSHOTS, 'receipt-phone.png'), fullPage: true });
});

test('static link › an open amount is typed by the customer and shown on the button', async ({ page }) => {
  await page.goto('/pay/acme-tips');
  await page.getByLabel('Amount').fill('150.50');
  await expect(page.getByRole('button', { name: 'Pay ₱150.50' })).toBeVisible();
  await fillCustomer(page);
  await fillCard(page, '4242424242424242');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByTestId('receipt-amount')).toHaveText('₱150.50');
});

test('static link › "25,00" typed on the Spanish page is 25.00: shown before Pay, charged, and on the receipt', async ({ page }) => {
  const shown = new Intl.NumberFormat('es', { style: 'currency', currency: 'PHP' }).format(25);
  await page.goto('/pay/acme-tips?lang=es');
  await expect(page.getByText('escrito así: 1234,50')).toBeVisible();
  await page.locator('#f-amount').fill('25,00');
  await expect(page.getByTestId('charge-preview')).toHaveText(`Se te cobrará ${shown}`);
  await expect(page.getByRole('button', { name: `Pagar ${shown}` })).toBeVisible();
  await page.locator('#f-customer-first_name').fill('Juan');
  await page.locator('#f-customer-last_name').fill('Dela Cruz');
  await page.locator('#f-customer-contact-email').fill('juan@example.com');
  await page.locator('#f-card-number').fill('4242424242424242');
  await page.locator('#f-card-expiry').fill(CARD_EXPIRY);
  await page.locator('#f-card-cvc').fill('123');
  await page.locator('#f-card-name').fill('Juan Dela Cruz');
  await page.getByRole('button', { name: /^Pagar/ }).click();
  await expect(page.getByTestId('receipt-amount')).toHaveText(shown);
});

test('static link › "25,00" typed on the English page is refused before Pay, with both readings', async ({ page }) => {
  await page.goto('/pay/acme-tips?lang=en');
  await page.getByLabel('Amount').fill('25,00');
  await expect(page.getByTestId('charge-preview')).toHaveText('');
  await expect(page.getByRole('button', { name: 'Pay', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByText('The amount can be read two ways: write 25.00 or 2,500')).toBeVisible();
  await page.getByLabel('Amount').fill('25.00');
  await expect(page.getByTestId('charge-preview')).toHaveText('You will be charged ₱25.00');
});

test('dynamic link › POST gives a link whose system-filled values are read-only, and it can be paid once', async ({ page, baseURL }) => {
  const link = await dynamicLink(baseURL!, 'acme-invoice', {
    customer: { first_name: 'Maria', contact: { email: 'maria@example.com' } },
    payment: { amount: '980.00', description: 'Invoice INV-2041', merchant_reference_id: 'INV-2041' },
    route: { notify_user: 'false' },
  });
  await page.goto(link);
  await expect(page.getByText('Invoice INV-2041')).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveValue('Maria');
  await expect(page.getByLabel('First name')).not.toBeEditable();
  await expect(page.getByLabel('Email')).toHaveValue('maria@example.com');
  await expect(page.getByLabel('Email')).not.toBeEditable();
  await expectNoAxeViolations(page);
  await page.getByLabel('Last name').fill('Santos');
  await fillCard(page, '4242424242424242');
  await page.getByRole('button', { name: 'Pay ₱980.00' }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await expect(page.getByText('INV-2041').first()).toBeVisible();
  // Opening the paid link again shows its receipt, not a form.
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await expect(page.getByLabel('Card number')).toHaveCount(0);
});

test('error pages › unknown link and unknown checkout are clear, accessible 404 pages', async ({ page }) => {
  const res = await page.goto('/pay/no-such-link');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Payment link not found' })).toBeVisible();
  await expectNoAxeViolations(page);
  const checkout = await page.goto(`/checkout/${'a'.repeat(43)}`);
  expect(checkout?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Payment not found' })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('error pages › an expired checkout says so', async ({ page }) => {
  // A fresh embedded database (initdb and migrations) can take a while on a loaded machine.
  test.setTimeout(120_000);
  // A second server whose checkout links live one second. It runs on PGlite: serve.mjs on
  // PostgreSQL drops the e2e databases it finds, which would pull the main server's away.
  // (Expiry on PostgreSQL is covered by tests/integration/checkout.test.ts.)
  const port = Number(process.env.PAYLINK_E2E_PORT) + 1;
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['tests/e2e/serve.mjs'], {
    // Its own fake of Stripe's API on any free port: the main server's holds PAYLINK_E2E_STRIPE_PORT.
    env: {
      ...process.env,
      PORT: String(port),
      PAYLINK_CHECKOUT_TTL_SECONDS: '1',
      PAYLINK_WORKERS: '0',
      PAYLINK_E2E_DB: 'pglite',
      PAYLINK_E2E_STRIPE_PORT: '0',
    },
    stdio: 'ignore',
  });
  try {
    await expect.poll(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status, { timeout: 90_000 }).toBe(200);
    const link = await dynamicLink(base, 'acme-books', {});
    await expect.poll(async () => (await fetch(link)).status, { timeout: 10_000 }).toBe(410);
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'This payment link has expired' })).toBeVisible();
    await expectNoAxeViolations(page);
  } finally {
    child.kill('SIGTERM');
  }
});

test('static link › card testing is stopped: declines stop saying why, then the card is refused in plain words', async ({ page }) => {
  const attempt = async () => {
    await page.getByLabel('Card number').fill('4000000000000127'); // declined: incorrect security code
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: /^Pay/ }).click();
  };
  const alert = page.getByRole('alert');
  await page.goto('/pay/acme-tips');
  await page.getByLabel('Amount').fill('25');
  await fillCustomer(page);
  await fillCard(page, '4000000000000127');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(alert).toContainText('The security code is incorrect');
  for (let i = 2; i <= 3; i++) {
    await attempt();
    await expect(alert).toContainText('The security code is incorrect');
  }
  // From the fourth decline (PAYLINK_LIMIT_DECLINE_REASONS, 3 per hour) the page only says "declined".
  await attempt();
  await expect(alert).toContainText('Your card was declined. Try another card or contact your bank.');
  await expect(alert).not.toContainText('security code');
  // A fresh page (a new session) does not help: the card has been declined 5 times
  // (PAYLINK_LIMIT_DECLINES_PER_CARD) and is refused before it reaches the acquirer.
  await attempt();
  await page.goto('/pay/acme-tips');
  await page.getByLabel('Amount').fill('25');
  await fillCustomer(page);
  await fillCard(page, '4000000000000127');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(alert).toHaveText('This card has been declined too many times. Use another card, or try this one again in 24 hours.');
  await expect(alert).toBeFocused();
  await expectNoAxeViolations(page);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(SCREENSHOTS, 'card-refused-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: join(SCREENSHOTS, 'card-refused-desktop.png'), fullPage: true });
  // Another card is welcome.
  await fillCard(page, '4242424242424242');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByTestId('receipt-amount')).toHaveText('₱25.00');
});
