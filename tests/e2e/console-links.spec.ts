import { join } from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe.ts';
import { signInOwner } from '../support/e2e-console.ts';
import { SCREENSHOTS, shoot } from '../support/screenshots.ts';

/**
 * Payment links in the console, in Chromium: the list, a new link whose preview follows the
 * typing before anything is saved, saving, the change on /pay/{slug}, an edit by keyboard, and
 * axe on the list and the editor at 390 px and 1280 px. Users come from tests/e2e/fixtures/seed.json.
 */
/**
 * The preview frame runs no scripts (sandboxed), so axe checks it from its own page: the payment
 * page's axe run is in checkout.spec.ts.
 */
const PREVIEW_EXCLUDED = { exclude: '.preview-box iframe' };
const WORDMARK = join(import.meta.dirname, 'fixtures', 'acme-wordmark.svg');

/** Screenshots wait after each resize: the preview frame follows the new width. */
const PREVIEW_SETTLES = { settleMs: 400 };

/** The preview frame on show (a newer one may be loading behind it). */
const preview = (page: Page) => page.locator('.preview-box iframe:not(.loading)').last().contentFrame();

test('console links › an owner creates a link, watches the preview follow the typing before saving, and the page goes live', async ({ page, request }) => {
  // Four axe runs over the whole editor (its payment methods included) and two screenshots: slow on a busy machine.
  test.slow();
  await signInOwner(page);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Payment links' }).click();
  await expect(page.getByRole('heading', { name: 'Payment links' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Pottery workshop/ })).toContainText('₱1,500.00');
  await expect(page.getByRole('row', { name: /Tip jar/ })).toContainText('Open, ₱20.00–₱5,000.00');
  await expectNoAxeViolations(page, PREVIEW_EXCLUDED);
  await shoot(page, 'console-links', PREVIEW_SETTLES);

  await page.getByRole('link', { name: 'New link' }).click();
  await expect(page.getByRole('heading', { name: 'New payment link' })).toBeVisible();
  await page.getByLabel('Title', { exact: true }).fill('Yoga class');
  await page.getByLabel('Address (slug)').fill('yoga-class');
  await page.getByLabel('Amount', { exact: true }).fill('800');
  await expect(preview(page).getByRole('heading', { name: 'Yoga class' })).toBeVisible();
  // The Pay button looks as customers see it; the frame is sandboxed without forms, so it takes nothing.
  await expect(preview(page).getByRole('button', { name: 'Pay ₱800.00' })).toBeEnabled();
  await expect(page.locator('.preview-box iframe:not(.loading)').last()).toHaveAttribute('sandbox', 'allow-same-origin');
  // Still typing: the preview follows, and nothing is saved yet.
  await page.getByLabel('Title', { exact: true }).press('End');
  await page.getByLabel('Title', { exact: true }).pressSequentially(' on Sunday');
  await page.getByLabel('Label for Mobile number').fill('Phone');
  await page.getByLabel('Mode for Mobile number').selectOption('customer');
  await expect(preview(page).getByRole('heading', { name: 'Yoga class on Sunday' })).toBeVisible();
  await expect(preview(page).getByLabel('Phone')).toBeVisible();
  expect((await request.get('/pay/yoga-class')).status()).toBe(404);
  await expectNoAxeViolations(page, PREVIEW_EXCLUDED);

  await page.getByRole('button', { name: 'Create link' }).click();
  await expect(page).toHaveURL(/\/console\/links\/yoga-class\?created=1$/);
  await expect(page.getByRole('status').filter({ hasText: 'The link is created.' })).toBeVisible();
  await expect(page.locator('.copy-link code')).toHaveText(/\/pay\/yoga-class$/);
  await expect(page.getByRole('button', { name: 'Copy link' })).toBeVisible();
  await expectNoAxeViolations(page, PREVIEW_EXCLUDED);

  const customer = await page.context().newPage();
  await customer.goto('/pay/yoga-class');
  await expect(customer.getByRole('heading', { name: 'Yoga class on Sunday' })).toBeVisible();
  await expect(customer.getByLabel('Phone')).toBeVisible();
  await expect(customer.getByRole('button', { name: 'Pay ₱800.00' })).toBeEnabled();
  await customer.close();
});

test('console links › an owner edits by keyboard alone: the preview changes before saving, Enter saves, /pay/{slug} shows it at once', async ({ page }) => {
  await signInOwner(page);
  await page.goto('/console/links');
  await page.getByRole('link', { name: 'Yoga class on Sunday' }).click();
  await expect(page.getByRole('heading', { name: 'Yoga class on Sunday' })).toBeVisible();
  await expect(preview(page).getByRole('heading', { name: 'Yoga class on Sunday' })).toBeVisible();
  await expectNoAxeViolations(page, PREVIEW_EXCLUDED);
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

test('console links › a refused save shows each problem beside its field, keeps what was typed and the chosen logo', async ({ page }) => {
  await signInOwner(page);
  await page.goto('/console/links/new');
  await page.getByLabel('Title', { exact: true }).fill('Bad link');
  await page.getByLabel('Amount', { exact: true }).fill('12');
  await page.getByLabel('Logo').setInputFiles(WORDMARK);
  await page.getByLabel('Most payments').fill('0');
  await page.getByRole('button', { name: 'Create link' }).click();
  await expect(page.getByText('Most payments must be at least 1')).toBeVisible();
  await expect(page.getByLabel('Most payments')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue('Bad link');
  await expect(page.locator('#save-state')).toHaveText('Not saved: correct what is marked');
  // The logo is still chosen: its thumbnail keeps the wordmark's shape (wider than high).
  const thumb = page.getByRole('img', { name: 'Chosen logo' });
  await expect(thumb).toBeVisible();
  const box = (await thumb.boundingBox())!;
  expect(box.height).toBeCloseTo(48, 0);
  expect(box.width).toBeGreaterThan(box.height * 2);
  await expectNoAxeViolations(page, PREVIEW_EXCLUDED);
  // Correcting the one field saves the link with that logo, without choosing the file again.
  await page.getByLabel('Most payments').fill('');
  await page.getByRole('button', { name: 'Create link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The link is created.' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Current logo' })).toHaveAttribute('src', /^\/assets\/img_/);
});

test('console links › without JavaScript the editor still saves, and “Update preview” draws the preview', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signInOwner(page);
  await page.goto('/console/links/new');
  await page.getByLabel('Title', { exact: true }).fill('Pottery glaze kit');
  await page.getByLabel('Amount', { exact: true }).fill('450');
  await page.getByRole('button', { name: 'Update preview' }).click();
  const frame = page.frameLocator('iframe[name="link-preview"]');
  await expect(frame.getByRole('heading', { name: 'Pottery glaze kit' })).toBeVisible();
  await expect(frame.getByRole('button', { name: 'Pay ₱450.00' })).toBeEnabled();
  await page.getByRole('button', { name: 'Create link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The link is created.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy link' })).toHaveCount(0);
  await expect(page.locator('.copy-link code')).toHaveText(/\/pay\/link-[0-9a-f]{10}$/);
  await context.close();
});

/**
 * Counts what the merchant does (clicks, fills, uploads), for the task-timing rule: a branded
 * link, from the list to its live page, in at most MAX_INTERACTIONS.
 */
const MAX_INTERACTIONS = 8;
function merchant() {
  let count = 0;
  return {
    get count() {
      return count;
    },
    click: async (target: Locator) => {
      count += 1;
      await target.click();
    },
    fill: async (target: Locator, value: string) => {
      count += 1;
      await target.fill(value);
    },
    upload: async (target: Locator, file: string) => {
      count += 1;
      await target.setInputFiles(file);
    },
  };
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const) {
  test(`console links › at ${size.width} px a branded link (title, amount, colour, logo) is made and its page opened in at most ${MAX_INTERACTIONS} interactions`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await signInOwner(page);
    await page.goto('/console/links');
    const title = `Glaze class ${size.width}`;
    const you = merchant();
    await you.click(page.getByRole('link', { name: 'New link' }));
    await you.fill(page.getByLabel('Title', { exact: true }), title);
    await you.fill(page.getByLabel('Amount', { exact: true }), '1250');
    await you.fill(page.getByLabel('Brand colour', { exact: true }), '#0f766e');
    await you.upload(page.getByLabel('Logo'), WORDMARK);
    // The address followed the title; the picker followed the hex field.
    await expect(page.getByLabel('Address (slug)')).toHaveValue(`glaze-class-${size.width}`);
    await expect(page.getByLabel('Brand colour picker')).toHaveValue('#0f766e');
    await expect(page.locator('#save-state')).toHaveText('Not created yet');
    await you.click(page.getByRole('button', { name: 'Create link' }));
    await expect(page).toHaveURL(new RegExp(`/console/links/glaze-class-${size.width}\\?created=1$`));
    // Everything to hand the link over is on the saved screen.
    await expect(page.getByRole('button', { name: 'Copy link' })).toBeVisible();
    await expect(page.getByTestId('link-qr')).toBeVisible();
    const [customer] = await Promise.all([page.context().waitForEvent('page'), you.click(page.getByRole('link', { name: /View page/ }))]);
    await expect(customer).toHaveURL(new RegExp(`/pay/glaze-class-${size.width}$`));
    await expect(customer.getByRole('heading', { name: title })).toBeVisible();
    await expect(customer.getByRole('button', { name: 'Pay ₱1,250.00' })).toBeEnabled();
    await expect(customer.locator('img[src^="/assets/img_"]').first()).toBeVisible();
    expect(await customer.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--brand').trim())).toBe('#0f766e');
    expect(you.count).toBeLessThanOrEqual(MAX_INTERACTIONS);
    await customer.close();
  });
}

test('console links › at 1280 px the preview stays beside the fields while they scroll, the Save bar at the window’s bottom', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInOwner(page);
  await page.goto('/console/links/acme-books');
  await expect(preview(page).getByRole('heading', { name: 'Acme Books' })).toBeVisible();
  await page.getByLabel('Label for Country').scrollIntoViewIfNeeded();
  const form = (await page.locator('#link-form').boundingBox())!;
  const pane = (await page.locator('.editor-preview').boundingBox())!;
  expect(pane.x).toBeGreaterThan(form.x + form.width - 1);
  // Sticky and as tall as the window, though the page has scrolled far below its start.
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
  expect(Math.abs(pane.y)).toBeLessThan(2);
  expect(pane.height).toBeCloseTo(800, -1);
  const bar = (await page.getByRole('region', { name: 'Save' }).boundingBox())!;
  expect(bar.y + bar.height).toBeCloseTo(800, -1);
  await expect(page.locator('#save-state')).toHaveText('No unsaved changes');
  await page.getByLabel('Cancel address').fill('https://acme.example/cancel');
  await expect(page.locator('#save-state')).toHaveText('Unsaved changes');
  await expect(page.getByRole('link', { name: 'Preview', exact: true })).toBeHidden();
  await page.screenshot({ path: join(SCREENSHOTS, 'console-link-editor-scrolled-1280.png') });
});

test('console links › at 390 px one column: no sideways scroll, the field table stacked, the Save bar’s Preview goes to the preview', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInOwner(page);
  await page.goto('/console/links/acme-books');
  await expect(preview(page).getByRole('heading', { name: 'Acme Books' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const table = page.locator('.fields-table');
  expect(await table.evaluate((t) => t.scrollWidth <= (t.parentElement?.clientWidth ?? 0))).toBe(true);
  // Stacked: a field's name, then its label input under it.
  const name = (await table.locator('th', { hasText: 'Mobile number' }).boundingBox())!;
  const label = (await page.getByLabel('Label for Mobile number').boundingBox())!;
  expect(label.y).toBeGreaterThan(name.y + name.height - 1);
  const bar = (await page.getByRole('region', { name: 'Save' }).boundingBox())!;
  expect(bar.y + bar.height).toBeCloseTo(844, -1);
  await page.getByRole('region', { name: 'Save' }).getByRole('link', { name: 'Preview' }).click();
  await expect(page.getByRole('heading', { name: 'Preview' })).toBeInViewport();
  await expectNoAxeViolations(page, PREVIEW_EXCLUDED);
  await shoot(page, 'console-link-editor-phone', PREVIEW_SETTLES);
});

test('console links › the expiry is picked in the browser’s time zone (named) and stored as UTC; the hex field and the picker keep in step', async ({
  browser,
}) => {
  const context = await browser.newContext({ timezoneId: 'Asia/Manila' });
  const page = await context.newPage();
  await signInOwner(page);
  await page.goto('/console/links/new');
  await expect(page.locator('#field-expires_at-hint')).toContainText('In your time zone, Asia/Manila (UTC+08:00); stored as UTC.');
  await page.getByLabel('Title', { exact: true }).fill('New year sale');
  await page.getByLabel('Amount', { exact: true }).fill('99');
  await page.getByLabel('Expires at').fill('2027-01-31T23:59');
  await page.getByLabel('Brand colour picker').fill('#7c2d12');
  await expect(page.getByLabel('Brand colour', { exact: true })).toHaveValue('#7c2d12');
  await page.getByLabel('Brand colour', { exact: true }).fill('#12');
  await expect(page.getByText('Brand colour must be # and six hexadecimal digits, such as #1d4ed8.')).toBeVisible();
  await expect(page.getByLabel('Brand colour', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Brand colour', { exact: true }).fill('B45309');
  await expect(page.getByLabel('Brand colour picker')).toHaveValue('#b45309');
  await expect(page.getByText('Brand colour must be # and six hexadecimal digits, such as #1d4ed8.')).toBeHidden();
  await page.getByRole('button', { name: 'Create link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The link is created.' })).toBeVisible();
  await expect(page.getByLabel('Expires at')).toHaveValue('2027-01-31T23:59');
  await expect(page.getByLabel('Expires at')).toHaveAttribute('data-utc', '2027-01-31T15:59:00.000Z');
  await expect(page.getByLabel('Brand colour', { exact: true })).toHaveValue('#b45309');
  await context.close();
});

test('console links › Copy link puts the address on the clipboard', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  await signInOwner(page);
  await page.goto('/console/links/acme-books');
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/pay/acme-books`);
  await context.close();
});
