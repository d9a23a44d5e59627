import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { shoot } from '../support/screenshots.ts';

/**
 * Payment links in the console, in Chromium: the list, a new link whose preview follows the
 * typing before anything is saved, saving, the change on /pay/{slug}, an edit by keyboard, and
 * axe on the list and the editor at 390 px and 1280 px. Users come from tests/e2e/fixtures/seed.json.
 */
const OWNER = { email: 'owner@acme.example', password: 'amber valley signal 11' };

async function expectNoAxeViolations(page: Page) {
  // The preview frame runs no scripts (sandboxed), so axe checks it from its own page: the
  // payment page's axe run is in checkout.spec.ts.
  const results = await new AxeBuilder({ page }).exclude('.preview-box iframe').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function signIn(page: Page) {
  await page.goto('/console');
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/console$/);
}

/** Screenshots wait after each resize: the preview frame follows the new width. */
const PREVIEW_SETTLES = { settleMs: 400 };

/** The preview frame on show (a newer one may be loading behind it). */
const preview = (page: Page) => page.locator('.preview-box iframe:not(.loading)').last().contentFrame();

test('console links › an owner creates a link, watches the preview follow the typing before saving, and the page goes live', async ({ page, request }) => {
  // Four axe runs over the whole editor (its payment methods included) and two screenshots: slow on a busy machine.
  test.slow();
  await signIn(page);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Payment links' }).click();
  await expect(page.getByRole('heading', { name: 'Payment links' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Pottery workshop/ })).toContainText('₱1,500.00');
  await expect(page.getByRole('row', { name: /Tip jar/ })).toContainText('Open, ₱20.00–₱5,000.00');
  await expectNoAxeViolations(page);
  await shoot(page, 'console-links', PREVIEW_SETTLES);

  await page.getByRole('link', { name: 'New link' }).click();
  await expect(page.getByRole('heading', { name: 'New payment link' })).toBeVisible();
  await page.getByLabel('Title', { exact: true }).fill('Yoga class');
  await page.getByLabel('Address (slug)').fill('yoga-class');
  await page.getByLabel('Amount', { exact: true }).fill('800');
  await expect(preview(page).getByRole('heading', { name: 'Yoga class' })).toBeVisible();
  await expect(preview(page).getByRole('button', { name: 'Pay ₱800.00' })).toBeDisabled();
  // Still typing: the preview follows, and nothing is saved yet.
  await page.getByLabel('Title', { exact: true }).press('End');
  await page.getByLabel('Title', { exact: true }).pressSequentially(' on Sunday');
  await page.getByLabel('Label for Mobile number').fill('Phone');
  await page.getByLabel('Mode for Mobile number').selectOption('customer');
  await expect(preview(page).getByRole('heading', { name: 'Yoga class on Sunday' })).toBeVisible();
  await expect(preview(page).getByLabel('Phone')).toBeVisible();
  expect((await request.get('/pay/yoga-class')).status()).toBe(404);
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Create link' }).click();
  await expect(page).toHaveURL(/\/console\/links\/yoga-class\?created=1$/);
  await expect(page.getByRole('status').filter({ hasText: 'The link is created.' })).toBeVisible();
  await expect(page.locator('.copy-link code')).toHaveText(/\/pay\/yoga-class$/);
  await expect(page.getByRole('button', { name: 'Copy link' })).toBeVisible();
  await expectNoAxeViolations(page);

  const customer = await page.context().newPage();
  await customer.goto('/pay/yoga-class');
  await expect(customer.getByRole('heading', { name: 'Yoga class on Sunday' })).toBeVisible();
  await expect(customer.getByLabel('Phone')).toBeVisible();
  await expect(customer.getByRole('button', { name: 'Pay ₱800.00' })).toBeEnabled();
  await customer.close();
});

test('console links › an owner edits by keyboard alone: the preview changes before saving, Enter saves, /pay/{slug} shows it at once', async ({ page }) => {
  await signIn(page);
  await page.goto('/console/links');
  await page.getByRole('link', { name: 'Yoga class on Sunday' }).click();
  await expect(page.getByRole('heading', { name: 'Yoga class on Sunday' })).toBeVisible();
  await expect(preview(page).getByRole('heading', { name: 'Yoga class on Sunday' })).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, 'console-link-editor', PREVIEW_SETTLES);

  const title = page.getByLabel('Title', { exact: true });
  await title.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Sunday yoga, beginners');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Description', { exact: true })).toBeFocused();
  await page.keyboard.type('Bring a mat');
  await expect(preview(page).getByRole('heading', { name: 'Sunday yoga, beginners' })).toBeVisible();
  await expect(preview(page).getByText('Bring a mat')).toBeVisible();
  // The previews drawn while typing add no history entries: Back leaves the editor.
  await page.goBack();
  await expect(page).toHaveURL(/\/console\/links$/);
  await page.goForward();
  await expect(page).toHaveURL(/\/console\/links\/yoga-class$/);

  await page.getByLabel('Title', { exact: true }).fill('Sunday yoga, beginners');
  await page.getByLabel('Title', { exact: true }).press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Saved. The payment page shows the change now.' })).toBeVisible();
  await page.goto('/pay/yoga-class');
  await expect(page.getByRole('heading', { name: 'Sunday yoga, beginners' })).toBeVisible();
});

test('console links › a refused save shows each problem beside its field and keeps what was typed', async ({ page }) => {
  await signIn(page);
  await page.goto('/console/links/new');
  await page.getByLabel('Title', { exact: true }).fill('Bad link');
  await page.getByLabel('Currency', { exact: true }).fill('ZZZ');
  await page.getByLabel('Amount', { exact: true }).fill('12');
  await page.getByRole('button', { name: 'Create link' }).click();
  await expect(page.getByText('Currency ZZZ is not a supported ISO 4217 currency code')).toBeVisible();
  await expect(page.getByLabel('Currency', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue('Bad link');
  await expectNoAxeViolations(page);
});

test('console links › without JavaScript the editor still saves, and “Update preview” draws the preview', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page);
  await page.goto('/console/links/new');
  await page.getByLabel('Title', { exact: true }).fill('Pottery glaze kit');
  await page.getByLabel('Amount', { exact: true }).fill('450');
  await page.getByRole('button', { name: 'Update preview' }).click();
  const frame = page.frameLocator('iframe[name="link-preview"]');
  await expect(frame.getByRole('heading', { name: 'Pottery glaze kit' })).toBeVisible();
  await expect(frame.getByRole('button', { name: 'Pay ₱450.00' })).toBeDisabled();
  await page.getByRole('button', { name: 'Create link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The link is created.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy link' })).toHaveCount(0);
  await expect(page.locator('.copy-link code')).toHaveText(/\/pay\/link-[0-9a-f]{10}$/);
  await context.close();
});
