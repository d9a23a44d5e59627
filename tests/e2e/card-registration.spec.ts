import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { SignJWT } from 'jose';
import { CARD_EXPIRY } from '../support/cards.ts';

/**
 * The hosted card registration page in Chromium: the customer saves a test card with the same
 * card form as checkout, and the integrator can then schedule charges on it.
 */
const TOKEN = 'e2e_token_acme_0123456789abcdefghijklmnop';
const SECRET = 'e2e_secret_acme_0123456789abcdefghijklmnop';

async function api(baseURL: string, method: string, path: string, body: unknown) {
  const res = await fetch(`${baseURL}${path}`, { method, headers: { authorization: TOKEN, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as { data: Record<string, any>; messages?: Record<string, string[]> };
}

test('card registration › saves a test card on the hosted page, then a schedule can charge it', async ({ page, baseURL }) => {
  const created = await api(baseURL!, 'POST', '/api/v1/card-registrations', { customer: { name: 'Ana Reyes', email: 'ana@example.com' } });
  expect(created.data.status_code).toBe('OK.11.00');
  await page.goto(new URL(created.data.link).pathname);
  await expect(page.getByRole('heading', { name: 'Save your card' })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  await page.getByLabel('Card number').fill('4242424242424242');
  await page.getByLabel('Expiry date').fill(CARD_EXPIRY);
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Ana Reyes');
  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page.getByRole('heading', { name: 'Card saved' })).toBeVisible();
  await expect(page.getByText('ending in 4242')).toBeVisible();

  const payload = await new SignJWT({
    data: {
      credit_card: { reference: created.data.reference },
      schedule: { second: '0', minute: '*', hour: '*', day_of_month: '*', month: '*', day_of_week: '*' },
      payment: { amount: 150, currency: 'PHP' },
      time_offset: '+08:00',
    },
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));
  const scheduled = await api(baseURL!, 'POST', '/api/v1/schedule', { payload });
  expect(scheduled.data.status_code).toBe('OK.12.00');
  const cancelled = await api(baseURL!, 'DELETE', '/api/v1/schedule', { reference: scheduled.data.reference });
  expect(cancelled.data.status_code).toBe('OK.12.20');
});

test('card registration › a declined card keeps the page open with the reason', async ({ page, baseURL }) => {
  const created = await api(baseURL!, 'POST', '/api/v1/card-registrations', {});
  await page.goto(new URL(created.data.link).pathname);
  await page.getByLabel('Card number').fill('4000000000000002');
  await page.getByLabel('Expiry date').fill(CARD_EXPIRY);
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Ana Reyes');
  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page.getByRole('alert')).toContainText(/declined/i);
  await expect(page.getByRole('heading', { name: 'Save your card' })).toBeVisible();
});

test('card registration › a saved card takes the customer to the return address, with no alert, on a Filipino page', async ({ page, baseURL }) => {
  const created = await api(baseURL!, 'POST', '/api/v1/card-registrations', {
    customer: { name: 'Ana Reyes', email: 'ana@example.com' },
    return_url: 'https://shop.example/after-card?order=7',
  });
  expect(created.data.status_code).toBe('OK.11.00');
  await page.route('https://shop.example/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Back at the shop</title><h1>Back at the shop</h1>' }),
  );
  await page.goto(`${new URL(created.data.link).pathname}?lang=fil`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'fil');
  await page.locator('#f-card-number').fill('4242424242424242');
  await page.locator('#f-card-expiry').fill(CARD_EXPIRY);
  await page.locator('#f-card-cvc').fill('123');
  await page.locator('#f-card-name').fill('Ana Reyes');
  await page.locator('button.pay').click();
  // Before: a red "Card registration created" (in English) stayed on the form.
  await page.waitForURL('https://shop.example/after-card?order=7', { timeout: 10_000 }).catch(async () => {
    expect(await page.locator('.alert:not(.empty)').allInnerTexts(), 'no alert, and on to the return address').toEqual([]);
    throw new Error(`stayed on ${page.url()}`);
  });
  await expect(page.getByRole('heading', { name: 'Back at the shop' })).toBeVisible();
  const registration = await api(baseURL!, 'GET', `/api/v1/card-registrations/${created.data.reference}`, undefined);
  expect(registration.data.card_registration.status).toBe('active');
});
