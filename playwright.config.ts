import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end: the built server (dist/) on a fresh data directory and the seed in
 * tests/e2e/fixtures, driven in Debian's Chromium (never a downloaded browser).
 * PAYLINK_E2E_DB=postgres runs the same suite on a fresh PostgreSQL database.
 */
// A port per run (inherited by Playwright's workers through the environment), so runs don't collide.
process.env.PAYLINK_E2E_PORT ??= String(41000 + Math.floor(Math.random() * 8000));
const port = Number(process.env.PAYLINK_E2E_PORT);
// The in-repo fake of Stripe's API listens here (tests/e2e/serve.mjs): the browser's calls to
// api.stripe.com are routed to it by tests/e2e/stripe.spec.ts.
process.env.PAYLINK_E2E_STRIPE_PORT ??= String(port + 8000);
const chromium = process.env.PAYLINK_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: '.tmp/e2e-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    command: `node tests/e2e/serve.mjs`,
    url: `http://127.0.0.1:${port}/readyz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { PORT: String(port), PAYLINK_E2E_STRIPE_PORT: process.env.PAYLINK_E2E_STRIPE_PORT },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
