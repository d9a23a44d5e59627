import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe.ts';
import { CARD_EXPIRY } from '../support/cards.ts';
import { scheduleData, signSchedule } from '../support/schedules.ts';
import { shoot } from '../support/screenshots.ts';

/**
 * The console's payments in Chromium: a customer pays through the sandbox checkout, the owner
 * finds the payment, refunds part of it from its page by keyboard and plain forms, and sees the
 * refund in the timeline; axe on every page; no JavaScript; screenshots at 390 and 1280 px.
 */
const OWNER = { email: 'owner@acme.example', password: 'amber valley signal 11' };
const TOKEN = 'e2e_token_acme_0123456789abcdefghijklmnop';
const SECRET = 'e2e_secret_acme_0123456789abcdefghijklmnop';

/** A receiver for the payment's callbacks: answers 200 and counts what it got. */
async function callbackReceiver() {
  const received: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers['webhook-id'] ?? ''));
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/paylink`, received, close: () => server.close() };
}

/**
 * A customer pays ₱250.00 through a dynamic link of acme-books (the sandbox checkout), whose
 * callbacks go to `callbackUrl`; returns the transaction id.
 */
async function payAsCustomer(page: Page, baseURL: string, callbackUrl: string): Promise<string> {
  const res = await fetch(`${baseURL}/pay/acme-books`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      key: TOKEN,
      customer: { first_name: 'Maria', last_name: 'Katigbak', contact: { email: 'maria@example.com' } },
      route: { callback_url: callbackUrl, notify_user: true },
    }),
  });
  expect(res.status).toBe(200);
  await page.goto(((await res.json()) as { link: string }).link);
  await page.getByLabel('Card number').fill('4242424242424242');
  await page.getByLabel('Expiry date').fill(CARD_EXPIRY.replace('/', ''));
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Maria Katigbak');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  return (await page.getByTestId('transaction-id').textContent())!.trim();
}

test('console › payments: find a checkout payment, refund part of it from its page, see the refund in the timeline', async ({ browser, baseURL }) => {
  test.setTimeout(90_000); // a checkout, two callbacks, an e-mail and a scheduled charge on a shared machine
  const receiver = await callbackReceiver();
  const customer = await (await browser.newContext()).newPage();
  const txn = await payAsCustomer(customer, baseURL!, receiver.url);
  const schedule = await fetch(`${baseURL}/api/v1/schedule`, {
    method: 'POST',
    headers: { authorization: TOKEN, 'content-type': 'application/json' },
    // Monthly, run on demand below: an every-minute schedule would charge acme for the rest of the run.
    body: JSON.stringify({
      payload: await signSchedule(
        scheduleData({ route: { notify_user: false }, schedule: { second: '0', minute: '0', hour: '9', day_of_month: '1', month: '*', day_of_week: '*' } }),
        { secret: SECRET, iat: new Date() },
      ),
    }),
  });
  const reference = ((await schedule.json()) as { data: { reference: string } }).data.reference;
  expect(reference).toMatch(/^sch_/);

  const page = await (await browser.newContext()).newPage();
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
  await page.goto('/console');
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Payments' }).click();
  await expect(page.getByRole('heading', { name: 'Payments', level: 1 })).toBeVisible();
  await expect(page.getByRole('row', { name: /Maria Katigbak/ })).toContainText('₱250.00');
  await expectNoAxeViolations(page);
  await shoot(page, 'console-payments');

  // Find it by its transaction id with the search box (a GET form), by keyboard.
  await page.getByLabel('Search').fill(txn);
  await page.getByLabel('Search').press('Enter');
  await expect(page).toHaveURL(new RegExp(`q=${txn}`));
  await expect(page.getByRole('row')).toHaveCount(2);
  await page
    .getByRole('row', { name: /Maria Katigbak/ })
    .getByRole('link')
    .click();
  await expect(page).toHaveURL(new RegExp(`/console/payments/${txn}$`));
  await expect(page.getByRole('heading', { name: /₱250\.00/ })).toBeVisible();
  await expectNoAxeViolations(page);

  // The callback worker has delivered payment.succeeded: the attempt, its status code and time.
  await expect(async () => {
    await page.reload();
    await expect(page.locator('.timeline')).toContainText(/Callback payment succeeded: delivered.*Attempt 1 at .* UTC: HTTP 200 in \d+ ms/s, { timeout: 500 });
  }).toPass({ timeout: 15_000 });
  expect(receiver.received).toHaveLength(1);
  await page
    .getByRole('button', { name: /^Resend callback/ })
    .first()
    .click();
  await expect(page.getByRole('status')).toContainText(/^The callback evt_\S+ is queued for delivery again\. Reference: OK\.13\.00$/);
  await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(2);
  // The same webhook-id: receivers deduplicate on it.
  expect(receiver.received[1]).toBe(receiver.received[0]);

  // Refund ₱100.00 of it: the form, then its confirm step.
  await page.getByLabel(/^Amount/).fill('100.00');
  await page.getByLabel('Reason').fill('One book arrived damaged');
  await page.getByRole('button', { name: 'Review refund' }).click();
  await expect(page.getByRole('heading', { name: 'Refund ₱100.00?' })).toBeVisible();
  await page.getByRole('button', { name: 'Refund ₱100.00' }).click();
  await expect(page.getByRole('status')).toContainText('Partial refund successful — ₱100.00');
  await expect(page.getByRole('status').locator('[data-support-reference]')).toHaveText('Reference: OK.04.00');
  const timeline = page.locator('.timeline');
  await expect(timeline).toContainText('Paid: ₱250.00');
  await expect(timeline).toContainText('Partial refund of ₱100.00 succeeded');
  await expect(page.getByText('Up to ₱150.00 can still be refunded.')).toBeVisible();
  // One status on every screen: the payment's page says what the list says.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('₱250.00 Partially refunded');
  // No mail server on this server: the receipt was written as a file, and the timeline says so.
  await expect(async () => {
    await page.reload();
    await expect(timeline).toContainText('E-mail about payment succeeded: not e-mailed: no mail server; saved as a file', { timeout: 500 });
  }).toPass({ timeout: 15_000 });
  await expectNoAxeViolations(page);
  await shoot(page, 'console-payment');

  // An over-refund is refused with the API's code, beside the form, before any confirm step.
  await page.getByLabel(/^Amount/).fill('150.01');
  await page.getByLabel('Reason').fill('Too much');
  await page.getByRole('button', { name: 'Review refund' }).click();
  await expect(page.getByRole('alert')).toContainText('Refund amount exceeds the refundable amount');
  await expect(page.getByRole('alert').locator('[data-support-reference]')).toHaveText('Reference: ER.20.21');
  await expectNoAxeViolations(page);

  await page.goto(`/console/payments?q=${txn}`);
  await expect(page.getByRole('row', { name: /Maria Katigbak/ })).toContainText('Partially refunded');
  const ran = await fetch(`${baseURL}/api/v1/schedules/${reference}/run`, { method: 'POST', headers: { authorization: TOKEN } });
  expect(((await ran.json()) as { data: { status_code: string } }).data.status_code).toBe('OK.12.10');
  for (const [path, name] of [
    ['/console/schedules', 'schedules'],
    [`/console/schedules/${reference}`, 'schedule'],
    ['/console/card-registrations', 'card-registrations'],
  ] as const) {
    await page.goto(path);
    await expectNoAxeViolations(page);
    await shoot(page, `console-${name}`);
  }
  // Other e2e tests register 4242 on the same server too: at least one row shows it.
  await expect(page.getByRole('row', { name: /Visa ···· 4242/ }).first()).toBeVisible();
  expect(scripts).toEqual([]);
  receiver.close();
});
