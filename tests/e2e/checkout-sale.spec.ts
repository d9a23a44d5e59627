import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { createApp, type PaylinkApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { links, payments } from '../../src/db/schema.ts';
import { applyProvisioning } from '../../src/domain/integrators/provisioning.ts';
import { createPromotion } from '../../src/domain/promotions/service.ts';
import { type AstroHandler, closeServer, createHttpServer, listen } from '../../src/http/server.ts';
import { createLogger } from '../../src/log.ts';
import { promotionCreateSchema } from '../../src/schemas/promotion.ts';
import { CARD_EXPIRY } from '../support/cards.ts';
import { CHECKOUT_JS_BUDGET, measurePageScripts } from '../support/checkout-weight.ts';

/**
 * A customer in Filipino pays a link that sells class passes with a quantity, a tip, a promotion
 * code and two questions, at phone and desktop sizes, axe-clean. The links editor does not write
 * these columns yet, so this spec serves the built app in-process on its own database (PGlite, or a
 * fresh PostgreSQL database with PAYLINK_E2E_DB=postgres) and writes the link's row itself.
 */
let app: PaylinkApp;
let server: ReturnType<typeof createHttpServer>;
let base = '';
let dataDir = '';
// PAYLINK_E2E_DB=postgres: a database of this spec's own on that server, dropped at the end.
const postgres = process.env.PAYLINK_E2E_DB === 'postgres' ? process.env.DATABASE_URL : undefined;
let database = '';
async function freshDatabase(adminUrl: string): Promise<string> {
  database = `paylink_e2e_sale_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
const shots = join(process.cwd(), 'docs', 'checkout');

test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'paylink-e2e-sale-'));
  const seedPath = join(dataDir, 'seed.json');
  writeFileSync(
    seedPath,
    JSON.stringify({
      integrators: [
        {
          name: 'Yoga Lokal',
          email: 'billing@yoga.example',
          token: 'e2e_token_yoga_0123456789abcdefghijklmnopqr',
          secret: 'e2e_secret_yoga_0123456789abcdefghijklmnopq',
          refund_capabilities: {},
          links: [{ slug: 'yoga-passes', title: 'Yoga class passes', currency: 'PHP', amount: '1.00', labels: {}, fields: {}, active: true }],
        },
      ],
    }),
  );
  const config = loadConfig({
    PAYLINK_DATA_DIR: dataDir,
    PAYLINK_MASTER_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
    ...(postgres ? { DATABASE_URL: await freshDatabase(postgres) } : {}),
  });
  app = await createApp({ config, log: createLogger('warn', () => {}) });
  await applyProvisioning(app, seedPath);
  const [link] = await app.db.select().from(links).where(eq(links.slug, 'yoga-passes'));
  await app.db
    .update(links)
    .set({
      amountMinor: null,
      items: [
        { id: 'pass', name: { en: 'Class pass', fil: 'Pass sa klase' }, unit_amount_minor: '50000', quantity: { min: 0, max: 4, default: 1 } },
        { id: 'mat', name: { en: 'Mat rental', fil: 'Renta ng banig' }, unit_amount_minor: '15000', quantity: { min: 0, max: 2, default: 0 } },
      ],
      tip: { presets: { kind: 'percent', values: [10, 15] }, custom: true },
      promotionCodes: true,
      questions: [
        {
          id: 'class',
          type: 'dropdown',
          label: { en: 'Which class?', fil: 'Aling klase?' },
          required: true,
          options: [
            { value: 'vinyasa', label: { en: 'Vinyasa' } },
            { value: 'yin', label: { en: 'Yin' } },
          ],
        },
        { id: 'waiver', type: 'checkbox', label: { en: 'I accept the studio rules', fil: 'Tinatanggap ko ang mga patakaran ng studio' }, required: true },
      ],
    })
    .where(eq(links.id, link!.id));
  await createPromotion(app, link!.integratorId, promotionCreateSchema.parse({ code: 'LAUNCH10', discount: { kind: 'percent', percent: 10 } }));
  await createPromotion(app, link!.integratorId, promotionCreateSchema.parse({ code: 'ALMOST', discount: { kind: 'percent', percent: 99 } }));
  const build = realpathSync(join(process.cwd(), 'dist'));
  const { handler } = (await import(join(build, 'server/entry.mjs'))) as { handler: AstroHandler };
  server = createHttpServer(app, { astroHandler: handler, clientDir: join(build, 'client') });
  app.boundPort = await listen(server, '127.0.0.1', 0);
  base = `http://127.0.0.1:${app.boundPort}`;
});

test.afterAll(async () => {
  if (server) await closeServer(server, 1000);
  await app?.database.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (postgres && database) {
    const admin = new pg.Client({ connectionString: postgres });
    await admin.connect();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
});

test('sale › the page stays within the checkout JavaScript budget with items, a tip, a code and questions', async () => {
  const html = await (await fetch(`${base}/pay/yoga-passes?lang=fil`)).text();
  const weight = await measurePageScripts(base, html);
  expect(weight.totalGzip).toBeLessThanOrEqual(CHECKOUT_JS_BUDGET);
});

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

for (const size of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`sale › a customer in Filipino buys 2 passes with a code and a tip at ${size.width} px`, async ({ page }) => {
    await page.setViewportSize(size);
    await page.goto(`${base}/pay/yoga-passes?lang=fil`);
    const summary = page.getByTestId('sale-summary');
    await expect(page.getByText('Pass sa klase')).toBeVisible();
    await expect(page.getByTestId('sale-total')).toHaveText('₱500.00');
    await page.getByRole('button', { name: 'Dagdagan ng isa ang Pass sa klase' }).click();
    await expect(page.getByTestId('sale-total')).toHaveText('₱1,000.00');
    await page.getByLabel('Promo code').fill('launch10');
    await page.getByRole('button', { name: 'Gamitin' }).click();
    await expect(page.getByText('Nagamit ang code na LAUNCH10: bawas na ₱100.00')).toBeVisible();
    await page.getByLabel('10%').check();
    await expect(summary).toContainText('Diskwento (LAUNCH10)');
    await expect(page.getByTestId('sale-total')).toHaveText('₱990.00');
    await page.getByLabel('Aling klase?').selectOption('yin');
    await page.getByLabel('Tinatanggap ko ang mga patakaran ng studio').check();
    await expectNoAxeViolations(page);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, `sale-fil-${size.width}.png`), fullPage: true });

    await page.getByLabel('Pangalan', { exact: false }).first().fill('Juan');
    for (const [label, value] of [
      ['Apelyido', 'Dela Cruz'],
      ['Email', 'juan@example.com'],
      ['Card number', '4242 4242 4242 4242'],
      ['Expiry date', CARD_EXPIRY],
      ['Security code', '123'],
    ] as const) {
      const field = page.getByLabel(label, { exact: false }).first();
      if (await field.count()) await field.fill(value);
    }
    const name = page.getByLabel('Pangalan sa card', { exact: false });
    if (await name.count()) await name.fill('Juan Dela Cruz');
    await page.getByRole('button', { name: 'Magbayad', exact: true }).click();
    await expect(page).toHaveURL(/\/checkout\//);
    const [paid] = await app.db
      .select()
      .from(payments)
      .where(eq(payments.status, 'succeeded'))
      .orderBy(payments.createdAt)
      .limit(1)
      .offset(size.width === 390 ? 0 : 1);
    expect(paid).toMatchObject({ amountMinor: 99000n, sale: { discount: { code: 'LAUNCH10' }, tip_minor: '9000', answers: { class: 'yin', waiver: true } } });
  });
}

test('sale › paying by QR Ph sends the chosen quantity and answers with the method form', async ({ page }) => {
  await page.goto(`${base}/pay/yoga-passes?lang=fil&method=qrph`);
  await page.getByRole('button', { name: 'Dagdagan ng isa ang Pass sa klase' }).click();
  await page.getByRole('button', { name: 'Dagdagan ng isa ang Pass sa klase' }).click();
  await expect(page.getByTestId('sale-total')).toHaveText('₱1,500.00');
  await page.getByLabel('Aling klase?').selectOption('vinyasa');
  await page.getByLabel('Tinatanggap ko ang mga patakaran ng studio').check();
  const form = page.getByTestId('method-form-qrph');
  for (const input of await form.locator('input:not([type=hidden]):not([readonly])').all()) {
    const name = (await input.getAttribute('name')) ?? '';
    await input.fill(name.includes('email') ? 'ana@example.com' : name.includes('mobile') ? '+639171234567' : 'Ana');
  }
  await form.locator('button').last().click();
  await expect(page).toHaveURL(/\/checkout\//);
  const token = new URL(page.url()).pathname.split('/')[2]!;
  const { findSessionByToken } = await import('../../src/domain/checkout/sessions.ts');
  const session = await findSessionByToken(app.db, token);
  expect(session?.providerAttempt).toMatchObject({
    amountMinor: '150000',
    sale: { lines: [{ id: 'pass', quantity: 3 }], answers: { class: 'vinyasa', waiver: true } },
  });
});

/** The QR Ph form's own fields (name, e-mail), filled as a customer would. */
async function fillMethodFields(page: Page) {
  const form = page.getByTestId('method-form-qrph');
  for (const input of await form.locator('input:not([type=hidden]):not([readonly])').all()) {
    const name = (await input.getAttribute('name')) ?? '';
    await input.fill(name.includes('email') ? 'ana@example.com' : name.includes('mobile') ? '+639171234567' : 'Ana');
  }
}

for (const size of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`sale › with JavaScript off, the QR Ph form pays the quantities, tip, code and answers chosen at ${size.width} px`, async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: size });
    const page = await context.newPage();
    try {
      await page.goto(`${base}/pay/yoga-passes?lang=fil&method=qrph`);
      // Nothing that needs script is offered; the page says what is counted.
      await expect(page.getByTestId('sale-nojs')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Gamitin' })).toBeHidden();
      await expect(page.getByRole('button', { name: 'Dagdagan ng isa ang Pass sa klase' })).toBeHidden();
      await page.getByRole('spinbutton', { name: /Pass sa klase/ }).fill('3');
      await page.getByRole('spinbutton', { name: /Renta ng banig/ }).fill('1');
      await page.getByLabel('15%').check();
      await page.getByLabel('Promo code').fill('launch10');
      await page.getByLabel('Aling klase?').selectOption('yin');
      await page.getByLabel('Tinatanggap ko ang mga patakaran ng studio').check();
      await fillMethodFields(page);
      // axe needs script in the page: the same markup is checked with it on (the test below).
      mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: join(shots, `sale-nojs-fil-${size.width}.png`), fullPage: true });
      await page.getByTestId('method-form-qrph').locator('button').last().click();
      await expect(page).toHaveURL(/\/checkout\//);
      // 3 × ₱500.00 + ₱150.00 = ₱1,650.00; 10 % off: ₱1,485.00; a 15 % tip: ₱222.75; ₱1,707.75 shown with the code.
      await expect(page.locator('body')).toContainText('₱1,707.75');
      const token = new URL(page.url()).pathname.split('/')[2]!;
      const { findSessionByToken } = await import('../../src/domain/checkout/sessions.ts');
      const session = await findSessionByToken(app.db, token);
      expect(session?.providerAttempt).toMatchObject({
        amountMinor: '170775',
        sale: {
          lines: [
            { id: 'pass', quantity: 3 },
            { id: 'mat', quantity: 1 },
          ],
          discount: { code: 'LAUNCH10', amount_minor: '16500' },
          tip_minor: '22275',
          answers: { class: 'yin', waiver: true },
        },
      });
    } finally {
      await context.close();
    }
  });

  test(`sale › with JavaScript on, a code leaving less than ₱20.00 is refused in Filipino before paying by QR Ph at ${size.width} px`, async ({ page }) => {
    await page.setViewportSize(size);
    await page.goto(`${base}/pay/yoga-passes?lang=fil&method=qrph`);
    await expect(page.getByTestId('sale-nojs')).toBeHidden();
    await page.getByLabel('Promo code').fill('almost');
    await page.getByRole('button', { name: 'Gamitin' }).click();
    const refusal = 'Sa code na ito, bababa ang kabuuan sa ₱20.00, ang pinakamaliit na bayad na tinatanggap dito';
    await expect(page.getByText(refusal)).toBeVisible();
    await page.getByLabel('Aling klase?').selectOption('vinyasa');
    await page.getByLabel('Tinatanggap ko ang mga patakaran ng studio').check();
    await fillMethodFields(page);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: join(shots, `sale-minimum-fil-${size.width}.png`), fullPage: true });
    // Paying anyway: refused, nothing started, the customer told why in Filipino.
    const before = (await app.db.select().from(payments)).length;
    await page.getByTestId('method-form-qrph').locator('button').last().click();
    await expect(page.getByTestId('method-refused')).toContainText('Sa code na ito, bababa ang kabuuan');
    expect((await app.db.select().from(payments)).length).toBe(before);
    // Without the code the same basket pays ₱500.00 by QR Ph, the quantities sent with the form.
    await page.getByLabel('Promo code').fill('');
    await page.getByRole('spinbutton', { name: /Pass sa klase/ }).fill('2');
    await page.getByLabel('Aling klase?').selectOption('vinyasa');
    await page.getByLabel('Tinatanggap ko ang mga patakaran ng studio').check();
    await fillMethodFields(page);
    await expect(page.getByTestId('sale-total')).toHaveText('₱1,000.00');
    await page.getByTestId('method-form-qrph').locator('button').last().click();
    await expect(page).toHaveURL(/\/checkout\//);
    await expect(page.locator('body')).toContainText('₱1,000.00');
  });
}
