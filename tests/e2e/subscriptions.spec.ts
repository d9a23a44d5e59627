import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import pg from 'pg';
import { CARD_EXPIRY } from '../support/cards.ts';
import { type PaylinkProcess, startPaylink } from '../support/process.ts';

/**
 * A subscription from a link (docs/subscriptions.md), on a paylink of its own (so the e-mails it writes
 * as files can be read): the gym's owner makes a monthly link in the console's editor (its Subscription
 * section) → the customer pays it with the
 * sandbox's card → the receipt e-mail carries the subscriptions page link → the page shows the plan and
 * the payment, a receipt downloads, the card is replaced, the subscription is cancelled → asking a new
 * page link for an unknown and a known e-mail answers the same. At 390 and 1280 px; axe finds nothing;
 * with PAYLINK_E2E_DB=postgres on a database of its own.
 */
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;
// The hash of 'acme owner passphrase 1' (tests/support/app.ts's seed).
const OWNER_HASH = '$argon2id$v=19$m=19456,t=2,p=1$8OdGoAtz6CZPznFw1Z8mPQ$v6dd537KJWnp39SKPNxTSkKRUwAuryWZLQlbIIYDcOk';
const seed = {
  integrators: [
    {
      name: 'Bayanihan Gym',
      email: 'billing@gym.example',
      token: 'e2e_token_gym_0123456789abcdefghijklmnopqr',
      secret: 'e2e_secret_gym_0123456789abcdefghijklmnopq',
      links: [],
      users: [{ email: 'owner@gym.example', password_hash: OWNER_HASH, role: 'owner' }],
    },
  ],
};

async function noAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** The subscriptions page link in the e-mails written so far (quoted-printable undone). */
function manageLinkIn(mailDir: string): string | undefined {
  let files: string[] = [];
  try {
    files = readdirSync(mailDir).filter((f) => f.endsWith('.eml'));
  } catch {
    return undefined;
  }
  for (const file of files) {
    const text = readFileSync(join(mailDir, file), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    const found = /(https?:\/\/[^\s"<>]+\/subscriptions\/manage\?token=[A-Za-z0-9_.-]+)/.exec(text)?.[1];
    if (found) return found;
  }
  return undefined;
}

for (const size of SIZES) {
  test(`subscriptions › ${size.width} px: paid from a link, managed from the e-mailed page, cancelled`, async ({ browser }) => {
    test.setTimeout(180_000);
    const dir = mkdtempSync(join(tmpdir(), 'paylink-e2e-subscriptions-'));
    writeFileSync(join(dir, 'seed.json'), JSON.stringify(seed), { mode: 0o600 });
    const env: Record<string, string> = { PAYLINK_DATA_DIR: join(dir, 'data'), PAYLINK_SEED: join(dir, 'seed.json') };
    const server = process.env.PAYLINK_E2E_DB === 'postgres' ? process.env.DATABASE_URL : undefined;
    const database = `paylink_e2e_subscriptions_${randomBytes(4).toString('hex')}`;
    const onServer = async (statement: string) => {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(statement).finally(() => client.end());
    };
    if (server) {
      await onServer(`create database ${database}`);
      const url = new URL(server);
      url.pathname = `/${database}`;
      env.DATABASE_URL = url.toString();
      env.PAYLINK_MASTER_KEY = randomBytes(32).toString('base64');
    }
    let running: PaylinkProcess | undefined;
    try {
      running = startPaylink(env);
      const base = await running.ready;
      const context = await browser.newContext({ viewport: size, acceptDownloads: true });
      const page = await context.newPage();

      // 0. The owner makes the subscription link in the console.
      await page.goto(`${base}/console`);
      await page.getByLabel('Email').fill('owner@gym.example');
      await page.getByLabel('Password').fill('acme owner passphrase 1');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(/\/console$/);
      await page.goto(`${base}/console/links/new`);
      await page.getByLabel('Title', { exact: true }).fill('Gym membership');
      await page.getByLabel('Address (slug)').fill('gym-monthly');
      await page.getByLabel('Amount', { exact: true }).fill('1500.00');
      await page.getByLabel('Paying this link starts a subscription').check();
      await page.getByLabel('Payments in all').fill('12');
      await page.getByLabel('When the customer cancels').selectOption('customer_chooses');
      await page.getByRole('button', { name: 'Create link' }).click();
      await expect(page).toHaveURL(/\/console\/links\/gym-monthly/);
      await expect(page.getByLabel('Paying this link starts a subscription')).toBeChecked();
      await context.clearCookies();

      // 1. The customer pays the subscription link.
      expect((await page.goto(`${base}/pay/gym-monthly`))?.status()).toBe(200);
      await page.getByLabel('First name').fill('Lorna');
      await page.getByLabel('Last name').fill('Villanueva');
      await page.getByLabel('Email').fill('lorna@example.com');
      await page.getByLabel('Card number').fill('4242424242424242');
      await page.getByLabel('Expiry date').fill(CARD_EXPIRY);
      await page.getByLabel('Security code').fill('123');
      await page.getByLabel('Name on card').fill('Lorna Villanueva');
      await page.getByRole('button', { name: 'Pay ₱1,500.00' }).click();
      await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();

      // 2. The receipt e-mail carries the page link.
      let manage: string | undefined;
      await expect.poll(() => (manage = manageLinkIn(join(dir, 'data', 'mail'))), { timeout: 30_000 }).toBeTruthy();

      // 3. The page: the plan, the payment, a receipt.
      await page.goto(manage!);
      await expect(page.getByRole('heading', { name: 'Your subscriptions' })).toBeVisible();
      await expect(page.getByTestId('subscription')).toContainText('₱1,500.00 every month');
      await expect(page.getByTestId('subscription')).toContainText('•••• 4242');
      await expect(page.getByTestId('subscriber-payment')).toHaveCount(1);
      await noAxeViolations(page);
      await page.screenshot({ path: join(dir, `manage-${size.width}.png`), fullPage: true });
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download' }).click();
      const receipt = readFileSync((await (await download).path())!, 'utf8');
      expect(receipt).toContain('₱1,500.00');

      // 4. Replace the card.
      await page.getByText('Replace card').click();
      await page.getByLabel('Card number').fill('5555555555554444');
      await page.getByLabel('Expiry date').fill(CARD_EXPIRY);
      await page.getByLabel('Security code').fill('123');
      await page.getByLabel('Name on card').fill('Lorna Villanueva');
      await page.getByRole('button', { name: 'Save new card' }).click();
      await expect(page.getByRole('status')).toContainText('Your new card is saved');
      await expect(page.getByTestId('subscription')).toContainText('•••• 4444');

      // 5. Cancel now.
      await page.getByRole('button', { name: 'Cancel now' }).click();
      await expect(page.getByRole('status')).toContainText('Your subscription is cancelled');
      await expect(page.getByTestId('subscription-status')).toHaveText('Cancelled');
      await noAxeViolations(page);

      // 6. A new page link: the same answer for an unknown and a known address.
      const answer = async (email: string) => {
        await page.goto(`${base}/subscriptions/manage?link=gym-monthly`);
        await page.getByLabel('E-mail address').fill(email);
        await page.getByRole('button', { name: 'Send me a link' }).click();
        return (await page.getByRole('status').textContent())?.trim();
      };
      const unknown = await answer('nobody@example.com');
      await noAxeViolations(page);
      expect(await answer('lorna@example.com')).toBe(unknown);
      await context.close();
    } finally {
      running?.child.kill('SIGTERM');
      await running?.exited;
      rmSync(dir, { recursive: true, force: true });
      if (server) await onServer(`drop database if exists ${database}`);
    }
  });
}
