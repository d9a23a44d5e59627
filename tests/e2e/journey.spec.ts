import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import pg from 'pg';
import { expectNoAxeViolations } from '../support/axe.ts';
import { CARD_EXPIRY } from '../support/cards.ts';
import { type PaylinkProcess, startPaylink } from '../support/process.ts';

/**
 * The operator's whole story, as issue #34's "done when" tells it, on a paylink of its own started on
 * an empty data directory (a seed with no integrators: no demo, no operator): the setup link from the
 * start banner → the operator's password and sign-in → a new integrator, its credentials shown once →
 * its owner accepts the invitation, signs in to the console and creates a link → a customer pays it
 * with the sandbox's card → the operator suspends the integrator from its page (a reason, a confirm
 * step) and the link's page says the merchant cannot take payments now → reactivated the same way, the
 * link takes a payment again; the operator log shows both. (tests/e2e/suspension.spec.ts walks the
 * shell's `npm run admin -- suspend`.)
 *
 * Run at a phone's width and a desktop's, each on its own fresh paylink; axe finds nothing on every
 * operator page (the confirm steps too), each shot into docs/operator/<page>-<width>.png; with
 * PAYLINK_E2E_DB=postgres on a database of its own.
 */
const OPERATOR = { email: 'ops@paylink.example', password: 'copper kestrel harbour 42' };
const OWNER = { email: 'owner@bayanihan.example', password: 'mango terrace lantern 58' };
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;
const DOCS = join(process.cwd(), 'docs', 'operator');

/** What runs past the right edge of the screen (outside a box that scrolls or clips it): a long id, a command. */
function pastTheEdge(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const contained = (el: Element) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== 'visible') return true;
      }
      return false;
    };
    return [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 1 && !contained(el))
      .map((el) => `${el.tagName.toLowerCase()}: ${(el.textContent ?? '').trim().slice(0, 60)}`);
  });
}

/** An operator page as it stands: axe finds nothing, nothing runs off the screen, and it is shot for docs/operator/. */
async function operatorPage(page: Page, name: string) {
  await expectNoAxeViolations(page);
  expect(await pastTheEdge(page)).toEqual([]);
  mkdirSync(DOCS, { recursive: true });
  await page.screenshot({ path: join(DOCS, `${name}-${page.viewportSize()!.width}.png`), fullPage: true });
}

/** The customer, in a browser of their own: pays the link with the sandbox's card and gets the receipt. */
async function customerPays(browser: Browser, size: (typeof SIZES)[number], url: string) {
  const context = await browser.newContext({ viewport: size });
  const page = await context.newPage();
  const res = await page.goto(url);
  expect(res?.status()).toBe(200);
  await page.getByLabel('First name').fill('Lorna');
  await page.getByLabel('Last name').fill('Villanueva');
  await page.getByLabel('Email').fill('lorna@example.com');
  await page.getByLabel('Card number').fill('4242424242424242');
  await page.getByLabel('Expiry date').fill(CARD_EXPIRY);
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Lorna Villanueva');
  await page.getByRole('button', { name: 'Pay ₱1,250.00' }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await expect(page.getByTestId('receipt-amount')).toHaveText('₱1,250.00');
  const transaction = (await page.getByTestId('transaction-id').textContent())!;
  expect(transaction).toMatch(/^txn_[0-9a-f]{32}$/);
  await context.close();
  return transaction;
}

for (const size of SIZES) {
  test(`journey › ${size.width} px: first start → operator → integrator → owner's link paid → suspended → reactivated, paid again`, async ({ browser }) => {
    test.setTimeout(240_000);
    const dir = mkdtempSync(join(tmpdir(), 'paylink-e2e-journey-'));
    writeFileSync(join(dir, 'seed.json'), JSON.stringify({ integrators: [] }), { mode: 0o600 });
    const env: Record<string, string> = { PAYLINK_DATA_DIR: join(dir, 'data'), PAYLINK_SEED: join(dir, 'seed.json') };
    const server = process.env.PAYLINK_E2E_DB === 'postgres' ? process.env.DATABASE_URL : undefined;
    const database = `paylink_e2e_journey_${randomBytes(4).toString('hex')}`;
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
    const start = async () => {
      running = startPaylink(env);
      return running.ready;
    };
    const stop = async () => {
      running?.child.kill('SIGTERM');
      await running?.exited;
      running = undefined;
    };
    let base = '';
    try {
      base = await start();
      // 1. The start banner: no operator yet, so a one-time setup link.
      const setup = /operator setup \(one-time link, no operator yet\): (\S+)/.exec(running!.output())?.[1];
      expect(setup, running!.output()).toMatch(/\/operator\/setup\/[A-Za-z0-9_-]{43}$/);

      // 2. The operator sets a password and signs in.
      const operator = await (await browser.newContext({ viewport: size })).newPage();
      await operator.goto(setup!);
      await expect(operator.getByRole('heading', { name: 'Set up your operator account' })).toBeVisible();
      await operatorPage(operator, 'setup');
      await operator.getByLabel('Your email').fill(OPERATOR.email);
      await operator.getByLabel('Password', { exact: true }).fill(OPERATOR.password);
      await operator.getByLabel('Password again').fill(OPERATOR.password);
      await operator.getByRole('button', { name: 'Create operator account' }).click();
      await expect(operator).toHaveURL(/\/operator\/sign-in\?email=/);
      await expect(operator.getByLabel('Email')).toHaveValue(OPERATOR.email);
      await operatorPage(operator, 'sign-in');
      await operator.getByLabel('Password').fill(OPERATOR.password);
      await operator.getByRole('button', { name: 'Sign in' }).click();
      await expect(operator).toHaveURL(/\/operator$/);
      await expect(operator.getByRole('heading', { name: 'Integrators' })).toBeVisible();
      await expect(operator.getByTestId('integrators').getByRole('link')).toHaveCount(0);

      // 3. A new integrator: its credentials and the owner's invitation, shown once.
      await operator.getByRole('navigation', { name: 'Operator' }).getByRole('link', { name: 'New integrator' }).click();
      await expect(operator.getByRole('heading', { name: 'New integrator' })).toBeVisible();
      await operatorPage(operator, 'new-integrator');
      await operator.getByLabel('Name').fill('Bayanihan Crafts');
      await operator.getByLabel('Contact email').fill('accounts@bayanihan.example');
      await operator.getByLabel('Customer support email').fill('help@bayanihan.example');
      await operator.getByLabel("First owner's email").fill(OWNER.email);
      await operator.getByRole('button', { name: 'Create integrator' }).click();
      await expect(operator.getByRole('heading', { name: 'Bayanihan Crafts is created' })).toBeVisible();
      await expect(operator.getByTestId('new-token').locator('code')).toHaveText(/^pl_/);
      const invite = (await operator.getByTestId('invite-url').locator('code').textContent())!;
      expect(invite).toMatch(/\/console\/invite\/\S+$/);
      await operatorPage(operator, 'integrator-created');
      // Shown once: the integrator's page never shows the token again.
      await operator.getByRole('link', { name: 'Open Bayanihan Crafts' }).click();
      await expect(operator.getByRole('heading', { name: 'Bayanihan Crafts', exact: true })).toBeVisible();
      await expect(operator.getByTestId('new-token')).toHaveCount(0);
      const integratorPath = new URL(operator.url()).pathname;

      // 4. The owner accepts the invitation, signs in to the console and creates a link.
      const owner = await (await browser.newContext({ viewport: size })).newPage();
      await owner.goto(`${base}${new URL(invite).pathname}`);
      await owner.getByLabel('Password', { exact: true }).fill(OWNER.password);
      await owner.getByLabel('Password again').fill(OWNER.password);
      await owner.getByRole('button', { name: 'Set password' }).click();
      await expect(owner).toHaveURL(/\/console\/sign-in$/);
      await owner.getByLabel('Email').fill(OWNER.email);
      await owner.getByLabel('Password').fill(OWNER.password);
      await owner.getByRole('button', { name: 'Sign in' }).click();
      await expect(owner.getByRole('heading', { name: 'Bayanihan Crafts' })).toBeVisible();
      await owner.goto(`${base}/console/links/new`);
      await owner.getByLabel('Title', { exact: true }).fill('Rattan basket');
      await owner.getByLabel('Address (slug)').fill('rattan-basket');
      await owner.getByLabel('Amount', { exact: true }).fill('1250');
      await owner.getByRole('button', { name: 'Create link' }).click();
      await expect(owner).toHaveURL(/\/console\/links\/rattan-basket\?created=1$/);

      // 5. A customer pays it with the sandbox's card.
      await customerPays(browser, size, `${base}/pay/rattan-basket`);
      await operator.goto(`${base}${integratorPath}`);
      await expect(operator.getByTestId('volume')).toHaveText('1 · ₱1,250.00');
      await expect(operator.getByTestId('integrator-status')).toHaveText(/^Active/);
      await operatorPage(operator, 'integrator');

      // 6. The operator suspends it with a reason, past the confirm step that says what it does:
      //    the link's page says the merchant cannot take payments now.
      await operator.locator('#status').getByLabel('Reason').fill('Business permit under review');
      await operator.getByRole('button', { name: 'Suspend…', exact: true }).click();
      await expect(operator.getByRole('heading', { name: 'Suspend Bayanihan Crafts?' })).toBeVisible();
      await expect(operator.getByTestId('confirm-step')).toContainText('Its schedules pause');
      await expect(operator.getByTestId('confirm-step')).toContainText('Reason (the merchant and other operators read it): Business permit under review');
      await operatorPage(operator, 'integrator-suspend-confirm');
      await operator.getByRole('button', { name: 'Suspend Bayanihan Crafts', exact: true }).click();
      await expect(operator).toHaveURL(/\?done=suspended#status$/);
      await expect(operator.getByTestId('done')).toContainText('The integrator is suspended');
      await expect(operator.getByTestId('integrator-status')).toContainText('Suspended since');
      await expect(operator.getByTestId('integrator-status')).toContainText('Business permit under review');
      await operatorPage(operator, 'integrator-suspended');
      const customer = await (await browser.newContext({ viewport: size })).newPage();
      const refused = await customer.goto(`${base}/pay/rattan-basket`);
      expect(refused?.status()).toBe(403);
      await expect(customer.getByRole('heading', { level: 1 })).toHaveText('This merchant cannot take payments right now');
      await expect(customer.getByRole('button', { name: /^Pay / })).toHaveCount(0);
      await operator.goto(`${base}/operator`);
      await expect(operator.getByTestId('integrator-list-status')).toHaveText(/^Suspended since \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
      await operatorPage(operator, 'integrators-suspended');

      // 7. Reactivated from its page, confirmed: the link takes a payment again.
      await operator.goto(`${base}${integratorPath}`);
      await operator.getByRole('button', { name: 'Reactivate…', exact: true }).click();
      await expect(operator.getByRole('heading', { name: 'Reactivate Bayanihan Crafts?' })).toBeVisible();
      await expect(operator.getByTestId('confirm-step')).toContainText('Business permit under review');
      await operatorPage(operator, 'integrator-reactivate-confirm');
      await operator.getByRole('button', { name: 'Reactivate Bayanihan Crafts', exact: true }).click();
      await expect(operator.getByTestId('done')).toContainText('The integrator is active again');
      await expect(operator.getByTestId('integrator-status')).toHaveText(/^Active/);
      await customerPays(browser, size, `${base}/pay/rattan-basket`);
      await operator.goto(`${base}/operator`);
      await expect(operator.getByTestId('integrators').getByRole('link', { name: 'Bayanihan Crafts' })).toBeVisible();
      await expect(operator.getByTestId('integrator-list-status')).toHaveText('Active');
      await operatorPage(operator, 'integrators');
      // The operator log tells the whole story: who suspended it, why, and who reactivated it.
      await operator.getByRole('navigation', { name: 'Operator' }).getByRole('link', { name: 'Activity' }).click();
      await expect(operator.getByRole('cell', { name: /integrator\.created$/ })).toBeVisible();
      await expect(operator.getByRole('row').filter({ hasText: 'integrator.suspended' })).toContainText(`${OPERATOR.email}`);
      await expect(operator.getByRole('row').filter({ hasText: 'integrator.suspended' })).toContainText('Bayanihan Crafts: Business permit under review');
      await expect(operator.getByRole('row').filter({ hasText: 'integrator.reactivated' })).toContainText(`${OPERATOR.email}`);
      await operatorPage(operator, 'activity');
    } finally {
      await stop();
      rmSync(dir, { recursive: true, force: true });
      if (server) await onServer(`drop database if exists ${database} with (force)`);
    }
  });
}
