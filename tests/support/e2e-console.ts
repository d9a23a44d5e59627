import { expect, type Page } from '@playwright/test';

/** The e2e seed's merchant (tests/e2e/fixtures/seed.json): its owner and its API credentials. */
export const ACME_OWNER = { email: 'owner@acme.example', password: 'amber valley signal 11' } as const;
export const ACME_TOKEN = 'e2e_token_acme_0123456789abcdefghijklmnop';
export const ACME_SECRET = 'e2e_secret_acme_0123456789abcdefghijklmnop';

/** Signs the page in to the console as the seed's owner, landing on Home. */
export async function signInOwner(page: Page): Promise<void> {
  await page.goto('/console');
  await page.getByLabel('Email').fill(ACME_OWNER.email);
  await page.getByLabel('Password').fill(ACME_OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/console$/);
}
