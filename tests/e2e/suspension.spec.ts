import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import pg from 'pg';
import { type PaylinkProcess, startPaylink } from '../support/process.ts';

/**
 * The operator suspends a merchant from a shell and reactivates it (`npm run admin`), as the
 * merchant's customers and users see it in Chromium: the payment page says the merchant cannot take
 * payments (English, Filipino) with no form, the console shows a banner; reactivated, the form is
 * back. Its own paylink on its own data directory: on PGlite the command runs between starts (the
 * embedded database is one process's); with PAYLINK_E2E_DB=postgres, on a database of its own, beside
 * the running paylink. Screenshots into docs/checkout/ and docs/console/, axe at each size.
 */
const OWNER = { email: 'owner@suspend.example', password: 'quartz meadow lantern 61' };
const sizes = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

async function shootInto(page: Page, dir: string, name: string) {
  const docs = join(process.cwd(), 'docs', dir);
  mkdirSync(docs, { recursive: true });
  for (const size of sizes) {
    await page.setViewportSize(size);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await page.screenshot({ path: join(docs, `${name}-${size.width}.png`), fullPage: true });
  }
}

test('suspension › the operator suspends from a shell: the page and the console say so; reactivated, the form is back', async ({ page }) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'paylink-e2e-suspend-'));
  const seed = {
    integrators: [
      {
        name: 'Bukid Farms',
        email: 'billing@suspend.example',
        token: 'e2e_token_suspend_0123456789abcdefghijklmnop',
        secret: 'e2e_secret_suspend_0123456789abcdefghijklmnop',
        links: [{ slug: 'bukid-box', title: 'Vegetable box', currency: 'PHP', amount: '450.00' }],
        users: [{ email: OWNER.email, password: OWNER.password, role: 'owner' }],
      },
    ],
  };
  writeFileSync(join(dir, 'seed.json'), JSON.stringify(seed), { mode: 0o600 });
  const env: Record<string, string> = { PAYLINK_DATA_DIR: join(dir, 'data'), PAYLINK_SEED: join(dir, 'seed.json') };
  const server = process.env.PAYLINK_E2E_DB === 'postgres' ? process.env.DATABASE_URL : undefined;
  const database = `paylink_e2e_suspend_${randomBytes(4).toString('hex')}`;
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
  // On PGlite paylink stops while the command runs; on PostgreSQL it keeps running and sees the change.
  const live = Boolean(server);
  const admin = (...args: string[]) => {
    const run = spawnSync('npm', ['run', '-s', 'admin', '--', ...args, '--json'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    return JSON.parse(run.stdout);
  };
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
  try {
    let url = await start();
    if (!live) await stop();
    const [merchant] = admin('list-integrators').integrators;
    expect(admin('suspend', merchant.id, '--reason', 'Business permit under review')).toMatchObject({ changed: true });

    if (!live) url = await start();
    for (const lang of ['en', 'fil'] as const) {
      const res = await page.goto(`${url}/pay/bukid-box?lang=${lang}`);
      expect(res?.status()).toBe(403);
      await expect(page.getByTestId('link-suspended')).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        lang === 'en' ? 'This merchant cannot take payments right now' : 'Hindi makatanggap ng bayad ang merchant na ito ngayon',
      );
      await expect(page.locator('form')).toHaveCount(0);
      await shootInto(page, 'checkout', `suspended-${lang}`);
    }
    await page.goto(`${url}/console`);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('console-suspended')).toContainText('This account is suspended.');
    await shootInto(page, 'console', 'suspended-banner');
    if (!live) await stop();

    expect(admin('reactivate', merchant.id)).toMatchObject({ changed: true, integrator: { status: 'active' } });
    if (!live) url = await start();
    const res = await page.goto(`${url}/pay/bukid-box?lang=en`);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('button', { name: /^Pay / })).toBeVisible();
  } finally {
    await stop();
    rmSync(dir, { recursive: true, force: true });
    if (server) await onServer(`drop database if exists ${database} with (force)`);
  }
});
