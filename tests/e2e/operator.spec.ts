import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe.ts';
import { CARD_EXPIRY } from '../support/cards.ts';
import { shoot } from '../support/screenshots.ts';

/**
 * The operator's first day, in Chromium: the setup link from the start banner (the fixture seed
 * makes no operator), a password, a new integrator whose secrets are shown once, and its owner
 * who accepts the invitation, signs in to the console and creates a link. axe on every operator
 * page; each is shot at 390 px and 1280 px (docs/operator/).
 */
const OPERATOR = { email: 'support@paylink.example', password: 'harbor lantern orchid 66' };
const OWNER = { email: 'owner@sampaguita.example', password: 'jasmine garland morning 77' };

/** The setup link the running server printed in its start banner (tests/e2e/serve.mjs keeps it). */
function bannerSetupLink(): string {
  const banner = readFileSync(join(process.cwd(), '.tmp', `e2e-banner-${process.env.PAYLINK_E2E_PORT}.txt`), 'utf8');
  const link = /operator setup \(one-time link, no operator yet\): (\S+)/.exec(banner)?.[1];
  if (!link) throw new Error(`no operator setup link in the banner:\n${banner}`);
  return link;
}

test('operator › first start: setup link → password → new integrator → its owner signs in and creates a link', async ({ page, browser }) => {
  // A long journey: two browsers, axe and screenshots at two widths on six pages.
  test.setTimeout(120_000);
  const setup = bannerSetupLink();
  await page.goto(new URL(setup).pathname);
  await expect(page.getByRole('heading', { name: 'Set up your operator account' })).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, 'operator-setup');
  await page.getByLabel('Your email').fill(OPERATOR.email);
  await page.getByLabel('Password', { exact: true }).fill(OPERATOR.password);
  await page.getByLabel('Password again').fill(OPERATOR.password);
  await page.getByRole('button', { name: 'Create operator account' }).click();

  await expect(page).toHaveURL(/\/operator\/sign-in\?email=/);
  await expect(page.getByLabel('Email')).toHaveValue(OPERATOR.email);
  await expectNoAxeViolations(page);
  await shoot(page, 'operator-sign-in');
  // The link worked once.
  const again = await page.context().newPage();
  const used = await again.goto(new URL(setup).pathname);
  expect(used?.status()).toBe(404);
  await expect(again.getByRole('heading', { name: 'Setup link not usable' })).toBeVisible();
  await again.close();

  await page.getByLabel('Password').fill(OPERATOR.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/operator$/);
  await expect(page.getByRole('heading', { name: 'Integrators' })).toBeVisible();
  await expect(page.getByTestId('integrators').getByRole('link', { name: 'Acme Books' })).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, 'operator-integrators');

  await page.getByRole('navigation', { name: 'Operator' }).getByRole('link', { name: 'New integrator' }).click();
  await expect(page.getByRole('heading', { name: 'New integrator' })).toBeVisible();
  await page.getByLabel('Name').fill('Sampaguita Flowers');
  // Another integrator's contact address: refused beside the field, what was typed kept.
  await page.getByLabel('Contact email').fill('billing@acme.example');
  await page.getByLabel('Customer support email').fill('help@sampaguita.example');
  await page.getByLabel("First owner's email").fill(OWNER.email);
  await page.getByRole('button', { name: 'Create integrator' }).click();
  await expect(page.getByText('Contact email is already the contact address of another integrator')).toBeVisible();
  await expect(page.getByLabel('Customer support email')).toHaveValue('help@sampaguita.example');
  await expectNoAxeViolations(page);
  await shoot(page, 'operator-new-integrator');
  await page.getByLabel('Contact email').fill('accounts@sampaguita.example');
  await page.getByRole('button', { name: 'Create integrator' }).click();

  await expect(page.getByRole('heading', { name: 'Sampaguita Flowers is created' })).toBeVisible();
  await expect(page.getByTestId('new-token').locator('code')).toHaveText(/^pl_/);
  await expect(page.getByRole('button', { name: 'Copy token' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy invitation link' })).toBeVisible();
  const invite = (await page.getByTestId('invite-url').locator('code').textContent())!;
  expect(invite).toMatch(/\/console\/invite\//);
  await expectNoAxeViolations(page);
  await shoot(page, 'operator-integrator-created');

  await page.getByRole('link', { name: 'Open Sampaguita Flowers' }).click();
  await expect(page.getByRole('heading', { name: 'Sampaguita Flowers', exact: true })).toBeVisible();
  await expect(page.getByTestId('integrator-status')).toContainText('Active');
  await page.getByLabel('Mode for Mobile number').selectOption('customer');
  await page.getByRole('button', { name: 'Save field modes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The field modes are saved' })).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, 'operator-integrator');

  await page.getByRole('navigation', { name: 'Operator' }).getByRole('link', { name: 'Activity' }).click();
  await expect(page.getByRole('cell', { name: 'field_modes.changed' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'integrator.created' })).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, 'operator-activity');

  await page.getByRole('navigation', { name: 'Operator' }).getByRole('link', { name: 'Your account' }).click();
  await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, 'operator-account');

  // The owner, in a browser of their own.
  const owner = await (await browser.newContext()).newPage();
  await owner.goto(new URL(invite).pathname);
  await owner.getByLabel('Password', { exact: true }).fill(OWNER.password);
  await owner.getByLabel('Password again').fill(OWNER.password);
  await owner.getByRole('button', { name: 'Set password' }).click();
  await expect(owner).toHaveURL(/\/console\/sign-in$/);
  await owner.getByLabel('Email').fill(OWNER.email);
  await owner.getByLabel('Password').fill(OWNER.password);
  await owner.getByRole('button', { name: 'Sign in' }).click();
  await expect(owner.getByRole('heading', { name: 'Sampaguita Flowers' })).toBeVisible();
  await owner.goto('/console/links/new');
  // The new link starts with the field modes support agreed.
  await expect(owner.getByLabel('Mode for Mobile number')).toHaveValue('customer');
  await owner.getByLabel('Title', { exact: true }).fill('Wedding garland');
  await owner.getByLabel('Address (slug)').fill('sampaguita-garland');
  await owner.getByLabel('Amount', { exact: true }).fill('1500');
  await owner.getByRole('button', { name: 'Create link' }).click();
  await expect(owner).toHaveURL(/\/console\/links\/sampaguita-garland\?created=1$/);
  const pay = await owner.goto('/pay/sampaguita-garland');
  expect(pay?.status()).toBe(200);
  await expect(owner.getByLabel(/Mobile number/)).toBeVisible();

  // A customer pays; support looks the payment up for a ticket, with a reason, and sees it.
  await owner.getByLabel('First name').fill('Maria');
  await owner.getByLabel('Last name').fill('Santos');
  await owner.getByLabel('Email').fill('maria.santos@example.com');
  await owner.getByLabel(/Mobile number/).fill('0917 123 4567');
  await owner.getByLabel('Card number').fill('4242424242424242');
  await owner.getByLabel('Expiry date').fill(CARD_EXPIRY);
  await owner.getByLabel('Security code').fill('123');
  await owner.getByLabel('Name on card').fill('Maria Santos');
  await owner.getByRole('button', { name: /^Pay/ }).click();
  await expect(owner.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  const txn = (await owner.getByTestId('transaction-id').textContent())!;
  await page.goto('/operator');
  await page.getByRole('link', { name: 'Sampaguita Flowers', exact: true }).click();
  await page.getByLabel('Payment id').fill(txn);
  await page.locator('#support').getByLabel('Reason').fill('short');
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(page.getByText('say why you need it, at least 10 characters')).toBeVisible();
  await expect(page.getByTestId('support-payment')).toHaveCount(0);
  await page.locator('#support').getByLabel('Reason').fill('#4521: the customer asks whether the garland was paid');
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(page.getByTestId('support-payment')).toContainText('maria.santos@example.com');
  await expect(page.getByTestId('support-payment')).toContainText('₱1,500.00');
  await expectNoAxeViolations(page);
  await shoot(page, 'operator-support-payment');
});
