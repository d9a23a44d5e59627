import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe.ts';
import { CARD_EXPIRY } from '../support/cards.ts';
import { ACME_OWNER, ACME_SECRET, ACME_TOKEN, signInOwner } from '../support/e2e-console.ts';
import { ACME_CARD, scheduleData, signSchedule } from '../support/schedules.ts';

/**
 * The pictures in docs/console/: every console page a merchant opens, each LOADED at 390 and at
 * 1280 px (not resized after loading, which shows what a phone never sees), full length, axe-clean
 * at both widths. A run rewrites them; they are looked at before a change that moves a screen lands.
 */
const DOCS = join(process.cwd(), 'docs', 'console');
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

test('console › every page, loaded at phone and desktop width, into docs/console', async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  mkdirSync(DOCS, { recursive: true });
  // Something to show: a paid checkout and a schedule.
  const customer = await (await browser.newContext()).newPage();
  const started = await fetch(`${baseURL}/pay/acme-books`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      key: ACME_TOKEN,
      customer: { first_name: 'Ligaya', last_name: 'Dimaculangan', contact: { email: 'ligaya@example.com', mobile: '+639175550123' } },
      route: { notify_user: true },
    }),
  });
  expect(started.status).toBe(200);
  await customer.goto(((await started.json()) as { link: string }).link);
  await expect(customer.getByRole('button', { name: /^Pay/ })).toBeEnabled();
  await customer.getByLabel('Card number').fill('4242424242424242');
  await customer.getByLabel('Expiry date').fill(CARD_EXPIRY.replace('/', ''));
  await customer.getByLabel('Security code').fill('123');
  await customer.getByLabel('Name on card').fill('Ligaya Dimaculangan');
  await customer.getByRole('button', { name: /^Pay/ }).click();
  await expect(customer.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  const txn = (await customer.getByTestId('transaction-id').textContent())!.trim();
  const schedule = await fetch(`${baseURL}/api/v1/schedule`, {
    method: 'POST',
    headers: { authorization: ACME_TOKEN, 'content-type': 'application/json' },
    // Monthly: an every-minute schedule kept charging acme's card for the rest of the run, and a
    // charge landing between a later spec's payment and its check made that spec's newest payment another.
    body: JSON.stringify({
      payload: await signSchedule(
        scheduleData({
          route: { notify_user: false },
          schedule: { second: '0', minute: '0', hour: '9', day_of_month: '1', month: '*', day_of_week: '*' },
        }),
        { secret: ACME_SECRET, iat: new Date() },
      ),
    }),
  });
  const reference = ((await schedule.json()) as { data: { reference: string } }).data.reference;
  expect(reference).toMatch(/^sch_/);

  const context = await browser.newContext();
  const page = await context.newPage();
  await signInOwner(page);
  await page.goto('/console/users');
  const userPath = await page.getByRole('link', { name: ACME_OWNER.email }).getAttribute('href');

  const pages: Array<[string, string]> = [
    ['home', '/console'],
    ['links', '/console/links'],
    ['link-new', '/console/links/new'],
    ['link-edit', '/console/links/acme-books'],
    ['payments', '/console/payments'],
    ['payment', `/console/payments/${txn}`],
    ['customer', '/console/customer?email=ligaya%40example.com'],
    ['schedules', '/console/schedules'],
    ['schedule', `/console/schedules/${reference}`],
    ['card-registrations', '/console/card-registrations'],
    ['card-registration', `/console/card-registrations/${ACME_CARD}`],
    ['promotions', '/console/promotions'],
    ['promotion-new', '/console/promotions/new'],
    ['users', '/console/users'],
    ['user', userPath!],
    ['activity', '/console/activity'],
    ['developers', '/console/developers'],
    ['account', '/console/account'],
  ];
  for (const [name, path] of pages) {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(200);
      await expectNoAxeViolations(page, { exclude: '.preview-box iframe' });
      // The current tab is whole on a phone: the menu scrolled to it.
      const current = page.locator('.console-nav [aria-current=page]');
      if ((await current.count()) > 0) {
        const box = (await current.boundingBox())!;
        expect(box.x, `${name} at ${size.width}`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${name} at ${size.width}`).toBeLessThanOrEqual(size.width);
      }
      await page.screenshot({ path: join(DOCS, `${name}-${size.width}.png`), fullPage: true });
    }
  }
  // The sign-in page, signed out.
  const out = await (await browser.newContext()).newPage();
  for (const size of SIZES) {
    await out.setViewportSize(size);
    await out.goto('/console/sign-in');
    await expectNoAxeViolations(out);
    await out.screenshot({ path: join(DOCS, `sign-in-${size.width}.png`), fullPage: true });
  }
});
