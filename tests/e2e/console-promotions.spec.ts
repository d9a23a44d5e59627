import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe.ts';
import { signInOwner } from '../support/e2e-console.ts';
import { shoot } from '../support/screenshots.ts';

/**
 * Promotion codes in the console, in Chromium: an owner makes a percentage code for every link and
 * a fixed one for a chosen link with a window, sees both in words, lowers a maximum after its
 * confirm step, deactivates one after its own; axe on every screen, screenshots at 390 px and
 * 1280 px. Users come from tests/e2e/fixtures/seed.json.
 */

test('console promotions › an owner makes two codes, reads them in words, changes one and deactivates the other, each asked first', async ({ page }) => {
  test.slow();
  await signInOwner(page);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Promotion codes' }).click();
  await expect(page.getByRole('heading', { name: 'Promotion codes' })).toBeVisible();
  await page.getByRole('link', { name: 'New code' }).click();

  // A refusal first: the fields keep what was typed and the message sits beside the field.
  await page.getByLabel('Code', { exact: true }).fill('E2E10');
  await page.getByLabel('Percent off', { exact: true }).fill('150');
  await page.getByRole('button', { name: 'Create code' }).click();
  await expect(page.locator('#field-percent-error')).toContainText('Percent off');
  await expect(page.getByLabel('Code', { exact: true })).toHaveValue('E2E10');
  await expectNoAxeViolations(page);
  await shoot(page, 'console-promotion-refused');

  await page.getByLabel('Percent off', { exact: true }).fill('10');
  await page.getByLabel('Most uses').fill('100');
  await page.getByRole('button', { name: 'Create code' }).click();
  await expect(page.getByRole('status')).toContainText('E2E10 is made.');
  await expectNoAxeViolations(page);
  await shoot(page, 'console-promotion');

  await page.goto('/console/promotions/new');
  await page.getByLabel('Code', { exact: true }).fill('e2e-pottery50');
  await page.getByLabel('A fixed amount off').check();
  await page.getByLabel('Amount off', { exact: true }).fill('50.00');
  await page.getByLabel('Only the links ticked below').check();
  await page.getByLabel(/^Pottery workshop/).check();
  await page.getByLabel('Valid from').fill('2030-12-01T09:00');
  await page.getByLabel('Valid until').fill('2031-01-01T00:00');
  await page.getByLabel('Once per customer e-mail address').check();
  await expectNoAxeViolations(page);
  await shoot(page, 'console-promotion-new');
  await page.getByRole('button', { name: 'Create code' }).click();
  await expect(page.getByRole('status')).toContainText('E2E-POTTERY50 is made.');

  await page.getByRole('link', { name: '← Promotion codes' }).click();
  await expect(page.getByRole('row', { name: /E2E-POTTERY50/ })).toContainText('₱50.00 off');
  await expect(page.getByRole('row', { name: /E2E-POTTERY50/ })).toContainText('Pottery workshop');
  await expect(page.getByRole('row', { name: /E2E-POTTERY50/ })).toContainText('Dec 1, 2030, 9:00 AM – Jan 1, 2031, 12:00 AM');
  await expect(page.getByRole('row', { name: /E2E-POTTERY50/ })).toContainText('Scheduled');
  await expect(page.getByRole('row', { name: /E2E10/ })).toContainText('10 % off');
  await expect(page.getByRole('row', { name: /E2E10/ })).toContainText('0 of 100');
  await expectNoAxeViolations(page);
  await shoot(page, 'console-promotions');

  // Lower the maximum: asked first, then saved.
  await page.getByRole('link', { name: 'E2E10' }).click();
  await page.getByLabel('Most uses').fill('40');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByTestId('confirm-step')).toContainText('Save the changes to E2E10?');
  await expect(page.getByTestId('confirm-step')).toContainText('At most 40 uses (0 so far).');
  await expectNoAxeViolations(page);
  await shoot(page, 'console-promotion-confirm');
  await page.getByTestId('confirm-step').getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status')).toContainText('The changes are saved.');
  await expect(page.locator('dl.facts')).toContainText('0 of 40');

  // Deactivate: asked first; "Keep it active" changes nothing.
  await page.getByRole('button', { name: 'Deactivate code' }).click();
  await page.getByRole('link', { name: 'Keep it active' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Active');
  await page.getByRole('button', { name: 'Deactivate code' }).click();
  await page.getByTestId('confirm-step').getByRole('button', { name: 'Deactivate code' }).click();
  await expect(page.getByRole('status')).toContainText('E2E10 is deactivated');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Inactive');
  await expect(page.getByRole('button', { name: 'Reactivate code' })).toBeVisible();
});
