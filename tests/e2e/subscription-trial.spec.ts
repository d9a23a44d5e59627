import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe.ts';
import { CARD_EXPIRY } from '../support/cards.ts';
import { signInOwner } from '../support/e2e-console.ts';
import { shoot } from '../support/screenshots.ts';

/**
 * A free trial from a subscription link (docs/subscriptions.md §2, "Trials"): the owner sets a 14-day
 * trial in the console's editor (the live preview says it) → the customer sees "Free for 14 days,
 * then …" and a "Start free trial" button, a declined card first, then starts it → the confirmation
 * page (no receipt: nothing was paid) → the console's schedule says "Free trial until …". At 390
 * and 1280 px, the page in en, fil and es; axe finds nothing.
 */
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

for (const size of SIZES) {
  test(`subscription trial › ${size.width} px: set in the console, started by the customer, shown to the merchant`, async ({ browser }) => {
    test.setTimeout(120_000);
    const slug = `gym-trial-${size.width}-${Date.now().toString(36)}`;
    const context = await browser.newContext({ viewport: size });
    const page = await context.newPage();

    // 1. The owner makes a monthly link with a 14-day trial.
    await signInOwner(page);
    await page.goto('/console/links/new');
    await page.getByLabel('Title', { exact: true }).fill('Gym membership');
    await page.getByLabel('Address (slug)').fill(slug);
    await page.getByLabel('Amount', { exact: true }).fill('1500.00');
    await page.getByLabel('Paying this link starts a subscription').check();
    await page.getByLabel('Free trial (days)').fill('14');
    await page.getByLabel('Payments in all').fill('12');
    const preview = page.locator('.preview-box iframe:not(.loading)').last().contentFrame();
    await expect(preview.getByTestId('trial-offer')).toContainText('Free for 14 days, then ₱1,500.00 every month', { timeout: 15_000 });
    await expect(preview.getByRole('button', { name: 'Start free trial' })).toBeVisible();
    if (size.width === 1280) await shoot(page, 'trial-editor', { settleMs: 500 });
    await page.getByRole('button', { name: 'Create link' }).click();
    await expect(page).toHaveURL(new RegExp(`/console/links/${slug}`));
    await expect(page.getByLabel('Free trial (days)')).toHaveValue('14');

    // 2. The customer's page: the trial's words and button, in three languages; cards only.
    const customer = await context.newPage();
    await customer.goto(`/pay/${slug}?lang=fil`);
    await expect(customer.getByTestId('trial-offer')).toHaveText('Libre sa loob ng 14 araw, pagkatapos ay ₱1,500.00 bawat buwan');
    await expect(customer.getByRole('button', { name: 'Simulan ang libreng trial' })).toBeVisible();
    await customer.goto(`/pay/${slug}?lang=es`);
    await expect(customer.getByTestId('trial-offer')).toHaveText('Gratis durante 14 días, luego 1500,00 PHP cada mes');
    await customer.goto(`/pay/${slug}?lang=en`);
    await expect(customer.getByTestId('trial-offer')).toHaveText('Free for 14 days, then ₱1,500.00 every month');
    await expect(customer.getByRole('button', { name: /^Pay/ })).toHaveCount(0);
    await expectNoAxeViolations(customer);
    await shoot(customer, `trial-page-${size.width}`);
    await customer.setViewportSize(size);

    // 3. A declined card: the reason, nothing started; then a good card starts the trial.
    await customer.getByLabel('First name').fill('Lorna');
    await customer.getByLabel('Last name').fill('Villanueva');
    await customer.getByLabel('Email').fill('lorna@example.com');
    await customer.getByLabel('Card number').fill('4000000000009995');
    await customer.getByLabel('Expiry date').fill(CARD_EXPIRY);
    await customer.getByLabel('Security code').fill('123');
    await customer.getByLabel('Name on card').fill('Lorna Villanueva');
    await customer.getByRole('button', { name: 'Start free trial' }).click();
    await expect(customer.getByRole('alert')).toContainText(/funds/i);
    await customer.getByLabel('Card number').fill('4242424242424242');
    await customer.getByLabel('Expiry date').fill(CARD_EXPIRY);
    await customer.getByLabel('Security code').fill('123');
    await customer.getByRole('button', { name: 'Start free trial' }).click();
    await expect(customer.getByRole('heading', { name: 'Your free trial has started' })).toBeVisible();
    await expect(customer.getByTestId('trial-first-payment')).toContainText('The first payment of ₱1,500.00 is on');
    await expectNoAxeViolations(customer);
    await shoot(customer, `trial-started-${size.width}`);
    await customer.goto(`${customer.url().split('?')[0]}?lang=es`);
    await expect(customer.getByRole('heading', { name: 'Tu prueba gratuita ha comenzado' })).toBeVisible();

    // 4. The merchant: the subscription, no payment yet.
    await page.goto('/console/schedules');
    const row = page.getByRole('row').filter({ hasText: slug }).first();
    await expect(row).toContainText('Free trial until');
    await row.getByRole('link').first().click();
    await expect(page.getByTestId('schedule-trial')).toContainText('no payment yet');
    await expectNoAxeViolations(page);
    if (size.width === 390) await shoot(page, 'trial-schedule');
    await context.close();
  });
}
