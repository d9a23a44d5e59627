import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe.ts';
import { CARD_EXPIRY } from '../support/cards.ts';
import { shoot } from '../support/screenshots.ts';

/**
 * A link's lifecycle and trust cues as a customer sees them, at phone (390×844) and desktop
 * (1280×800) sizes: the Test mode badge on the form, the cancel and "Return to" links, the
 * single-use link once paid, an expired link. Screenshots go to .tmp/e2e-results/screenshots/.
 */

test('single-use link › badge and cancel link on the form, "Return to" on the receipt, then "already paid"', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto('/pay/acme-class');
  await expect(page.getByTestId('test-mode')).toHaveText(/Test mode/);
  await expect(page).toHaveTitle('Glazing class · Acme Books');
  await expect(page.getByRole('link', { name: 'Cancel and return to Acme Books' })).toHaveAttribute('href', 'https://shop.acme.example/classes');
  await expectNoAxeViolations(page);
  await shoot(page, 'pay-test-mode');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByLabel('First name').fill('Juan');
  await page.getByLabel('Last name').fill('Dela Cruz');
  await page.getByLabel('Email').fill('juan@example.com');
  await page.getByLabel('Card number').fill('5555555555554444');
  await page.getByLabel('Expiry date').fill(CARD_EXPIRY);
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Juan Dela Cruz');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await expect(page.getByTestId('receipt-card')).toHaveText('Mastercard ending in 4444');
  const id = await page.getByTestId('transaction-id').textContent();
  await expect(page.getByRole('link', { name: 'Return to Acme Books' })).toHaveAttribute(
    'href',
    `https://shop.acme.example/thanks?class=glazing&transaction_id=${id}`,
  );
  await expectNoAxeViolations(page);
  await shoot(page, 'receipt-return');
  // The favicon is served: no 404 (or any other error) in the console on the form and the receipt.
  expect(errors).toEqual([]);
  const again = await page.goto('/pay/acme-class');
  expect(again?.status()).toBe(410);
  await expect(page.getByRole('heading', { name: 'This payment link has already been paid' })).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, 'link-already-paid');
});

test('expired link › a 410 page that says why, with the badge', async ({ page }) => {
  const res = await page.goto('/pay/acme-expired');
  expect(res?.status()).toBe(410);
  await expect(page.getByRole('heading', { name: 'This payment link has expired' })).toBeVisible();
  await expect(page.getByText('You have not been charged')).toBeVisible();
  await expect(page.getByTestId('test-mode')).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, 'link-expired');
});
