import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe.ts';
import { CARD_EXPIRY } from '../support/cards.ts';
import { shoot } from '../support/screenshots.ts';

/**
 * The console's Home (figures and chart) and Developers page (credentials, callback URL, test
 * event) in Chromium: axe, 390 px and 1280 px, no JavaScript, and a rotated API token used
 * against the API. The token rotation keeps the seed's token for 7 days, so the other specs,
 * which use it, are not affected.
 */
const OWNER = { email: 'owner@acme.example', password: 'amber valley signal 11' };
const STAFF = { email: 'staff@acme.example', password: 'cedar window thunder 22' };
const KEY = 'e2e_token_acme_0123456789abcdefghijklmnop';

async function signIn(page: Page, user: { email: string; password: string }) {
  await page.goto('/console');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/console$/);
}

/** A paid payment through a dynamic link and the checkout, as a customer would leave it. */
async function pay(baseURL: string, amount: string) {
  const link = await fetch(`${baseURL}/pay/acme-tips`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      key: KEY,
      customer: { first_name: 'Ana', last_name: 'Reyes', contact: { email: 'ana@example.com' } },
      payment: { amount, description: 'E2E order' },
    }),
  });
  expect(link.status, await link.clone().text()).toBe(200);
  const token = new URL(((await link.json()) as { link: string }).link).pathname.split('/').pop();
  const paid = await fetch(`${baseURL}/checkout/${token}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseURL },
    body: JSON.stringify({
      fields: {},
      card: { number: '4242424242424242', expiry: CARD_EXPIRY, cvc: '123', name: 'Ana Reyes' },
    }),
  });
  expect(paid.status, await paid.clone().text()).toBe(200);
}

test('console › Home shows the last 30 days’ figures with a server-drawn chart, and passes axe', async ({ page, baseURL }) => {
  await pay(baseURL!, '250.00');
  await pay(baseURL!, '1200.00');
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
  await signIn(page, OWNER);
  const php = page.getByRole('region', { name: 'PHP' });
  await expect(php).toBeVisible();
  await expect(php.getByRole('img', { name: /PHP paid per day/ })).toBeVisible();
  await expect(php.locator('.figure').first()).toContainText('payments');
  await expectNoAxeViolations(page);
  await page.getByText('PHP day by day (table)').click();
  await expect(php.getByRole('table', { name: 'PHP paid and refunded per day' })).toBeVisible();
  await expect(php.getByRole('table', { name: 'Paid with, last 30 days' })).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, 'console-home');
  expect(scripts).toEqual([]);
});

test('console › Developers: an owner rotates the API token, sees it once and uses it; staff get a 404', async ({ page, baseURL, browser }) => {
  await signIn(page, OWNER);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Developers' }).click();
  await expect(page.getByRole('heading', { name: 'Developers', level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, 'console-developers');

  // Keyboard only: choose the overlap and rotate.
  await page.getByLabel('Keep the old token working for').focus();
  await page.getByLabel('Keep the old token working for').selectOption('7d');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Rotate API token' })).toBeFocused();
  await page.keyboard.press('Enter');
  // The confirm step says who stops working and when; its confirm button comes first.
  await expect(page.getByRole('heading', { name: 'Rotate the API token?' })).toBeVisible();
  await expect(page.getByTestId('confirm-step')).toContainText('Integrations using the current token keep working for 7 days');
  await page.getByRole('button', { name: 'Rotate the API token' }).focus();
  await page.keyboard.press('Enter');
  const shown = page.getByTestId('new-secret');
  await expect(shown).toBeVisible();
  const token = (await shown.textContent())!.trim();
  expect(token).toMatch(/^pl_/);
  await expect(page.getByRole('status')).toContainText('The old token keeps working until');
  // Shown once, so one click copies it exactly.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy API token' }).click();
  await expect(page.getByText('API token copied.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await expectNoAxeViolations(page);
  await shoot(page, 'console-developers-rotated');

  // Shown once: a reload shows no token.
  await page.goto('/console/developers');
  await expect(page.getByTestId('new-secret')).toHaveCount(0);
  expect(await page.content()).not.toContain(token);

  // The new token works against the API; so does the old one during the overlap.
  expect((await fetch(`${baseURL}/api/v1/ping`)).status).toBe(200);
  for (const t of [token, KEY]) {
    const res = await fetch(`${baseURL}/api/v1/integrator`, { headers: { authorization: `Bearer ${t}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { integrator: { name: string } } }).data.integrator.name).toBe('Acme Books');
  }

  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signIn(staff, STAFF);
  await expect(staff.getByRole('link', { name: 'Developers' })).toHaveCount(0);
  const res = await staff.goto('/console/developers');
  expect(res?.status()).toBe(404);
  await staffContext.close();
});

test('console › Developers: the default callback URL and a test event delivered to it, with its result on the page', async ({ page }) => {
  const received: Array<{ headers: Record<string, unknown>; body: string }> = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/paylink-hooks`;
  try {
    await signIn(page, OWNER);
    await page.goto('/console/developers');
    await page.getByLabel('Callback URL', { exact: true }).fill(url);
    await page.getByRole('button', { name: 'Save callback URL' }).click();
    await expect(page.getByRole('status')).toHaveText('The default callback URL is saved.');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect(page.getByRole('status')).toContainText('is queued for');
    // The callback worker delivers it; reload until the page shows the delivery.
    await expect
      .poll(
        async () => {
          await page.goto('/console/developers');
          return page.getByRole('table', { name: 'Recent test events and their delivery' }).textContent();
        },
        { timeout: 20_000 },
      )
      .toMatch(/delivered.*HTTP 204/);
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ type: 'webhook.test' });
    expect(received[0]!.headers['webhook-signature']).toMatch(/^v1,/);
    await expectNoAxeViolations(page);
    await shoot(page, 'console-developers-test-event');
  } finally {
    // The account's default callback URL goes back to none for the other specs.
    await page.getByLabel('Callback URL', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save callback URL' }).click();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});

test('console › Developers: the link key comes first, is shown on every visit, creates checkouts and is refused by the API', async ({ page, baseURL }) => {
  await signIn(page, OWNER);
  await page.goto('/console/developers');
  const headings = await page.getByRole('heading', { level: 2 }).allTextContents();
  expect(headings.slice(0, 2)).toEqual(['Link key', 'API token']);
  const linkKey = (await page.getByTestId('link-key').textContent())!.trim();
  expect(linkKey).toMatch(/^pk_link_[A-Za-z0-9_-]{43}$/);
  await expectNoAxeViolations(page);
  await shoot(page, 'console-developers-link-key');
  await page.reload();
  await expect(page.getByTestId('link-key')).toHaveText(linkKey);

  const created = await fetch(`${baseURL}/pay/acme-tips`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: linkKey, payment: { amount: '75.00', description: 'E2E link key' } }),
  });
  expect(created.status, await created.clone().text()).toBe(200);
  const refused = await fetch(`${baseURL}/api/v1/integrator`, { headers: { authorization: linkKey } });
  expect(refused.status).toBe(403);
  expect(((await refused.json()) as { data: { status_code: string } }).data.status_code).toBe('ER.01.30');
});

test('console › Developers: QR Ph codes expire after the minutes an owner chooses; a value outside 1 to 150 is refused beside the field', async ({ page }) => {
  await signIn(page, OWNER);
  await page.goto('/console/developers');
  const panel = page.getByRole('region', { name: 'QR Ph codes' });
  const minutes = panel.getByLabel('Codes expire after (minutes)');
  await minutes.fill('151');
  await panel.getByRole('button', { name: 'Save QR Ph expiry' }).click();
  await expect(page.getByRole('region', { name: 'QR Ph codes' }).getByText('must be a whole number of minutes from 1 to 150')).toBeVisible();
  await expect(page.getByRole('region', { name: 'QR Ph codes' }).getByLabel('Codes expire after (minutes)')).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page);
  await page.getByRole('region', { name: 'QR Ph codes' }).scrollIntoViewIfNeeded();
  await shoot(page, 'console-developers-qr-refused');
  await page.getByRole('region', { name: 'QR Ph codes' }).getByLabel('Codes expire after (minutes)').fill('15');
  await page.getByRole('region', { name: 'QR Ph codes' }).getByRole('button', { name: 'Save QR Ph expiry' }).click();
  await expect(page.getByRole('status')).toContainText('QR Ph codes now expire 15 minutes after the customer chooses QR Ph.');
  await expect(page.getByRole('region', { name: 'QR Ph codes' }).getByLabel('Codes expire after (minutes)')).toHaveValue('15');
  await shoot(page, 'console-developers-qr-saved');
  // Back to PayMongo's 30 minutes, which the other journeys on this server expect.
  await page.getByRole('region', { name: 'QR Ph codes' }).getByLabel('Codes expire after (minutes)').fill('');
  await page.getByRole('region', { name: 'QR Ph codes' }).getByRole('button', { name: 'Save QR Ph expiry' }).click();
  await expect(page.getByRole('status')).toContainText('QR Ph codes now expire after 30 minutes');
});
