import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe.ts';
import { shoot } from '../support/screenshots.ts';

/**
 * The sandbox's customer side of the local methods in Chromium: the "Scan to pay" page a QR Ph
 * code opens and the authorisation page of an e-wallet, each answered with its buttons (plain
 * forms, same origin), test mode said, axe-clean, looked at at 390 and 1280 px.
 */
const KEY = 'e2e_token_acme_0123456789abcdefghijklmnop';
const customer = { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' };

async function startMethod(baseURL: string, method: string): Promise<{ token: string; data: Record<string, string> }> {
  const link = await fetch(`${baseURL}/pay/acme-books`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: KEY }),
  });
  const token = new URL(((await link.json()) as { link: string }).link).pathname.split('/')[2]!;
  const res = await fetch(`${baseURL}/checkout/${token}/method`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method, fields: customer }),
  });
  return { token, data: ((await res.json()) as { data: Record<string, string> }).data };
}

const status = async (baseURL: string, token: string) =>
  ((await (await fetch(`${baseURL}/checkout/${token}/status`)).json()) as { data: Record<string, string> }).data;

test('sandbox › a QR Ph code opens the scan page; Approve pays the checkout', async ({ page, baseURL }) => {
  const { token, data } = await startMethod(baseURL!, 'qrph');
  expect(data.checkout_url).toBe(`/checkout/${token}`);
  const waiting = await status(baseURL!, token);
  expect(waiting).toMatchObject({ status: 'awaiting_scan', method: 'qrph' });
  // The code's content is the scan page's absolute address: what a phone on the network opens.
  await page.goto(waiting.qr_content!);
  await expect(page.getByRole('heading', { name: 'Scan to pay' })).toBeVisible();
  await expect(page.getByTestId('sandbox-test-mode')).toContainText('Test mode');
  await expect(page.getByTestId('sandbox-amount')).toHaveText('₱250.00');
  await expectNoAxeViolations(page);
  await shoot(page, 'sandbox-scan');
  await page.getByTestId('sandbox-approve').click();
  await expect(page.getByTestId('sandbox-result')).toHaveAttribute('data-status', 'succeeded');
  await shoot(page, 'sandbox-scan-approved');
  expect(await status(baseURL!, token)).toMatchObject({ status: 'succeeded', method: 'qrph', receipt_url: `/checkout/${token}` });
});

test('sandbox › the authorisation page in Filipino: Authorise brings the customer back to the receipt; Decline back to choose again', async ({
  page,
  baseURL,
}) => {
  const paid = await startMethod(baseURL!, 'gcash');
  await page.goto(`${paid.data.next_action_url}?lang=fil`);
  await expect(page.getByRole('heading', { name: 'Pahintulutan ang bayad' })).toBeVisible();
  await expect(page.getByTestId('sandbox-method')).toContainText('GCash');
  await expectNoAxeViolations(page);
  await shoot(page, 'sandbox-authorise-fil');
  await page.getByTestId('sandbox-approve').click();
  await expect(page).toHaveURL(new RegExp(`/checkout/${paid.token}$`));
  expect(await status(baseURL!, paid.token)).toMatchObject({ status: 'succeeded', method: 'gcash' });

  const declined = await startMethod(baseURL!, 'gcash');
  await page.goto(declined.data.next_action_url!);
  await page.getByTestId('sandbox-decline').click();
  await expect(page).toHaveURL(new RegExp(`/checkout/${declined.token}\\?payment=cancelled$`));
  expect(await status(baseURL!, declined.token)).toMatchObject({ status: 'declined', decline_code: 'cancelled' });
});

test('sandbox › an unknown payment is a 404 page that still says test mode', async ({ page }) => {
  const res = await page.goto('/sandbox/scan/sbp_000000000000000000000000');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Payment not found' })).toBeVisible();
  await expect(page.getByTestId('sandbox-test-mode')).toBeVisible();
});
