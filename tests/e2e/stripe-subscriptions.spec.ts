import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import pg from 'pg';
import { expectNoAxeViolations } from '../support/axe.ts';
import { type FakeStripe, startFakeStripe } from '../support/fakes/stripe.ts';
import { type PaylinkProcess, startPaylink } from '../support/process.ts';
import { shoot } from '../support/screenshots.ts';

/**
 * A subscription on Stripe (docs/subscriptions.md §2, §3), on a paylink of its own (so the e-mails it
 * writes as files can be read) against the in-repo fake of Stripe's API: the customer pays the
 * subscription link in Stripe's form (the stand-in for Stripe.js, tests/e2e/fixtures/fake-stripe.js),
 * opens the subscriptions page from the receipt e-mail, and replaces the card in Stripe's form in
 * setup mode: a declined card is said so and changes nothing, another is saved. A free trial link
 * saves the card in Stripe's form in setup mode and charges nothing. The pages at 390 and 1280 px,
 * the replacement in en, fil and es; axe finds nothing. With PAYLINK_E2E_DB=postgres on a database of its own.
 */
const stripeJs = readFileSync(join(process.cwd(), 'tests/e2e/fixtures/fake-stripe.js'), 'utf8');
const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, content-type' };

async function standInForStripe(page: Page, fake: FakeStripe) {
  await page.route('https://js.stripe.com/v3/', (route) => route.fulfill({ contentType: 'application/javascript', body: stripeJs }));
  await page.route('https://api.stripe.com/**', async (route) => {
    if (route.request().method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    const url = new URL(route.request().url());
    const response = await route.fetch({ url: `${fake.url}${url.pathname}${url.search}` });
    await route.fulfill({ response, headers: { ...response.headers(), ...cors } });
  });
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

test('stripe subscriptions › paid in Stripe’s form, the card kept; the customer replaces it in Stripe’s form', async ({ browser }) => {
  test.setTimeout(180_000);
  const fake = await startFakeStripe();
  const dir = mkdtempSync(join(tmpdir(), 'paylink-e2e-stripe-subscriptions-'));
  const seed = {
    integrators: [
      {
        name: 'Tala Studio',
        email: 'billing@tala.example',
        token: 'e2e_token_tala_0123456789abcdefghijklmnopqr',
        secret: 'e2e_secret_tala_0123456789abcdefghijklmnopq',
        acquirer: {
          provider: 'stripe',
          public_key: fake.publishableKey,
          secret_key: fake.secretKey,
          webhook_secret: fake.webhookSecret,
          api_base_url: fake.url,
        },
        links: [
          {
            slug: 'tala-yoga',
            title: 'Yoga membership',
            currency: 'USD',
            amount: '12.00',
            subscription: { interval: 'month', every: 1, cancel: 'period_end' },
          },
          {
            slug: 'tala-trial',
            title: 'Yoga membership',
            currency: 'USD',
            amount: '12.00',
            subscription: { interval: 'month', every: 1, cancel: 'period_end', trial_days: 14 },
          },
        ],
      },
    ],
  };
  writeFileSync(join(dir, 'seed.json'), JSON.stringify(seed), { mode: 0o600 });
  // The fake of Stripe's API listens on plain http on this machine.
  const env: Record<string, string> = { PAYLINK_DATA_DIR: join(dir, 'data'), PAYLINK_SEED: join(dir, 'seed.json'), PAYLINK_ALLOW_PRIVATE_CALLBACKS: '1' };
  const server = process.env.PAYLINK_E2E_DB === 'postgres' ? process.env.DATABASE_URL : undefined;
  const database = `paylink_e2e_stripe_subs_${randomBytes(4).toString('hex')}`;
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
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await standInForStripe(page, fake);

    // 1. The customer pays the subscription link in Stripe's form.
    await page.goto(`${base}/pay/tala-yoga`);
    await expect(page.getByRole('button', { name: /^Pay/ })).toBeEnabled();
    // The Element is told the card is kept, cards only, as the PaymentIntent will be.
    const asked = await page.evaluate(() => (window as unknown as { __stripeElementsOptions: Record<string, unknown> }).__stripeElementsOptions);
    expect(asked).toMatchObject({ setupFutureUsage: 'off_session', allowedPaymentMethodTypes: ['card'] });
    await page.getByLabel('First name').fill('Liza');
    await page.getByLabel('Last name').fill('Reyes');
    await page.getByLabel('Email').fill('liza@example.com');
    await page.getByLabel('Stripe card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible({ timeout: 10_000 });

    // 2. The page from the receipt e-mail: the card Stripe kept, paid with it each month.
    let manage: string | undefined;
    await expect.poll(() => (manage = manageLinkIn(join(dir, 'data', 'mail'))), { timeout: 30_000 }).toBeTruthy();
    await page.goto(manage!);
    await expect(page.getByTestId('subscription')).toContainText('$12.00 every month');
    await expect(page.getByTestId('subscription')).toContainText('•••• 4242');

    // 3. Replace card: Stripe's form in setup mode for this subscription.
    await page.getByText('Replace card').click();
    await expect(page.getByRole('button', { name: 'Enter a new card' })).toBeVisible();
    await expectNoAxeViolations(page);
    await shoot(page, 'stripe-subscription-start');
    await page.getByRole('button', { name: 'Enter a new card' }).click();
    await expect(page.getByTestId('replace-card-setup')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save new card' })).toBeEnabled();
    await expectNoAxeViolations(page);
    await shoot(page, 'stripe-subscription-replace');
    const form = page.url();
    for (const lang of ['fil', 'es'] as const) {
      const url = new URL(form);
      url.searchParams.set('lang', lang);
      await page.goto(url.href);
      await expect(page.getByTestId('replace-card-setup')).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expectNoAxeViolations(page);
      await shoot(page, `stripe-subscription-replace-${lang}`);
    }
    await page.goto(form);

    // A declined card: said in the form; nothing changes.
    await page.getByLabel('Stripe card number').fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Save new card' }).click();
    await expect(page.getByRole('alert')).toContainText(/declined/i);
    // Another card: saved, charged from the next payment on.
    await page.getByLabel('Stripe card number').fill('5555 5555 5555 4444');
    await page.getByRole('button', { name: 'Save new card' }).click();
    await expect(page.getByRole('status')).toContainText('Your new card is saved', { timeout: 10_000 });
    await expect(page.getByTestId('subscription')).toContainText('•••• 4444');
    await expectNoAxeViolations(page);
    await shoot(page, 'stripe-subscription-replaced');
    await context.close();

    // 4. A free trial on Stripe: Stripe's form saves the card (setup mode) and nothing is charged.
    const trial = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const customer = await trial.newPage();
    await standInForStripe(customer, fake);
    await customer.goto(`${base}/pay/tala-trial`);
    await expect(customer.getByTestId('trial-offer')).toHaveText('Free for 14 days, then $12.00 every month');
    await expect(customer.getByRole('button', { name: 'Start free trial' })).toBeEnabled();
    const setupAsked = await customer.evaluate(() => (window as unknown as { __stripeElementsOptions: Record<string, unknown> }).__stripeElementsOptions);
    expect(setupAsked).toMatchObject({ mode: 'setup', setupFutureUsage: 'off_session', allowedPaymentMethodTypes: ['card'] });
    await customer.getByLabel('First name').fill('Mara');
    await customer.getByLabel('Last name').fill('Santos');
    await customer.getByLabel('Email').fill('mara@example.com');
    await expectNoAxeViolations(customer);
    await shoot(customer, 'stripe-trial');
    // A declined card is said in the form; nothing starts.
    await customer.getByLabel('Stripe card number').fill('4000 0000 0000 0002');
    await customer.getByRole('button', { name: 'Start free trial' }).click();
    await expect(customer.getByRole('alert')).toContainText(/declined/i);
    await customer.getByLabel('Stripe card number').fill('4242 4242 4242 4242');
    await customer.getByRole('button', { name: 'Start free trial' }).click();
    await expect(customer.getByRole('heading', { name: 'Your free trial has started' })).toBeVisible({ timeout: 10_000 });
    await expect(customer.getByText('Nothing was charged.', { exact: false })).toBeVisible();
    await expect(customer.getByText('•••• 4242')).toBeVisible();
    await expectNoAxeViolations(customer);
    await shoot(customer, 'stripe-trial-started');
    // Stripe was asked for a SetupIntent, never a payment, for the trial.
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/setup_intents').length).toBeGreaterThan(0);
    await trial.close();
  } finally {
    running?.child.kill('SIGTERM');
    await running?.exited;
    rmSync(dir, { recursive: true, force: true });
    await fake.close();
    if (server) await onServer(`drop database if exists ${database}`);
  }
});
