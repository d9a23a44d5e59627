import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { ACME_TOKEN, signInOwner } from '../support/e2e-console.ts';
import { SCREENSHOTS, shoot } from '../support/screenshots.ts';

/**
 * A link's payment methods in the console editor, in Chromium: the methods the sandbox takes by
 * name, ticked and numbered into the merchant's order, the preview naming them before anything is
 * saved, and the same with JavaScript off. Users come from tests/e2e/fixtures/seed.json.
 */

const preview = (page: Page) => page.locator('.preview-box iframe:not(.loading)').last().contentFrame();
const methods = (page: Page) => page.getByRole('group', { name: 'Payment methods' });

test('console link methods › an owner picks GCash then Card, sees them in that order in the preview, and saves them', async ({ page }) => {
  // Two full-length screenshots and two of the fieldset, at two widths each: slow on a busy machine.
  test.slow();
  await signInOwner(page);
  await page.goto('/console/links/new');
  await page.getByLabel('Title', { exact: true }).fill('Night market stall');
  await page.getByLabel('Address (slug)').fill('night-market');
  await page.getByLabel('Amount', { exact: true }).fill('150');
  const group = methods(page);
  for (const name of ['QR Ph', 'GCash', 'Maya', 'GrabPay', 'ShopeePay', 'BillEase', 'Card'])
    await expect(group.getByRole('checkbox', { name, exact: true })).toBeVisible();
  // Every method the sandbox takes, cards first, until the merchant says otherwise.
  await expect(preview(page).getByTestId('preview-methods')).toContainText('Card · QR Ph · GCash · Maya');
  await group.getByLabel('Only the methods ticked below').check();
  for (const box of await group.getByRole('checkbox').all()) await box.uncheck();
  await group.getByRole('checkbox', { name: 'GCash', exact: true }).check();
  await group.getByRole('checkbox', { name: 'Card', exact: true }).check();
  await group.getByLabel('Order of Card').fill('2');
  await group.getByLabel('Order of GCash').fill('1');
  await expect(preview(page).getByTestId('preview-methods')).toHaveText('Payment methods, in this order: GCash · Card');
  const results = await new AxeBuilder({ page }).exclude('.preview-box iframe').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await shoot(page, 'console-link-methods', { settleMs: 400 });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await group.screenshot({ path: join(SCREENSHOTS, `console-link-methods-fieldset-${width}.png`) });
  }

  await page.getByRole('button', { name: 'Create link' }).click();
  await expect(page).toHaveURL(/\/console\/links\/night-market\?created=1$/);
  await expect(methods(page).getByLabel('Only the methods ticked below')).toBeChecked();
  await expect(methods(page).getByRole('checkbox', { name: 'GCash', exact: true })).toBeChecked();
  await expect(methods(page).getByRole('checkbox', { name: 'QR Ph', exact: true })).not.toBeChecked();
  const res = await page.request.get('/api/v1/links/night-market', { headers: { authorization: `Bearer ${ACME_TOKEN}` } });
  expect((await res.json()).data.link.payment_methods).toEqual(['gcash', 'card']);
});

test('console link methods › without JavaScript the choice and its order still save, and “Update preview” names them', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signInOwner(page);
  await page.goto('/console/links/new');
  await page.getByLabel('Title', { exact: true }).fill('Rice delivery');
  await page.getByLabel('Address (slug)').fill('rice-delivery');
  await page.getByLabel('Amount', { exact: true }).fill('900');
  const group = methods(page);
  await group.getByLabel('Only the methods ticked below').check();
  for (const box of await group.getByRole('checkbox').all()) await box.uncheck();
  await group.getByRole('checkbox', { name: 'QR Ph', exact: true }).check();
  await group.getByRole('checkbox', { name: 'BillEase', exact: true }).check();
  await group.getByLabel('Order of BillEase').fill('1');
  await group.getByLabel('Order of QR Ph').fill('2');
  await page.getByRole('button', { name: 'Update preview' }).click();
  await expect(page.frameLocator('iframe[name="link-preview"]').getByTestId('preview-methods')).toHaveText('Payment methods, in this order: BillEase · QR Ph');
  await page.getByRole('button', { name: 'Create link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The link is created.' })).toBeVisible();
  // The saved order is the merchant's: BillEase is listed first now.
  await expect(methods(page).getByRole('checkbox').first()).toHaveAccessibleName('BillEase');
  await expect(methods(page).getByRole('checkbox', { name: 'QR Ph', exact: true })).toBeChecked();
  await context.close();
});

test('console link methods › the Developers page sets the account’s default methods, which a new link’s editor offers', async ({ page }) => {
  await signInOwner(page);
  await page.goto('/console/developers');
  const group = methods(page);
  await expect(group.getByLabel(/Every method Sandbox \(test mode\) takes/)).toBeChecked();
  await group.getByLabel('Only the methods ticked below').check();
  for (const box of await group.getByRole('checkbox').all()) await box.uncheck();
  await group.getByRole('checkbox', { name: 'QR Ph', exact: true }).check();
  await group.getByRole('checkbox', { name: 'Maya', exact: true }).check();
  await page.getByRole('button', { name: 'Save payment methods' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The default payment methods are saved' })).toBeVisible();
  const section = page.locator('section[aria-labelledby="methods-heading"]');
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await section.screenshot({ path: join(SCREENSHOTS, `console-developers-methods-${width}.png`) });
  }
  await page.goto('/console/links/new');
  await expect(methods(page).getByText("Your account's default methods: QR Ph, Maya")).toBeVisible();
  await expect(preview(page).getByTestId('preview-methods')).toHaveText('Payment methods, in this order: QR Ph · Maya');
  // Back to every method, for the other journeys.
  await page.goto('/console/developers');
  await methods(page)
    .getByLabel(/Every method/)
    .check();
  await page.getByRole('button', { name: 'Save payment methods' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'every method your acquirer takes' })).toBeVisible();
});
