import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

/** The API reference (/docs/api): rendered on the server from the OpenAPI document, no script, readable on a phone and a laptop. */
for (const width of [390, 1280]) {
  test(`api reference › lists every operation readably at ${width} px, within the CSP and with nothing from outside`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 900 });
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
    });
    // The browser asks for /favicon.ico on its own; anything else the page loads must exist.
    page.on('response', (r) => {
      if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) problems.push(`${r.status()} ${r.url()}`);
    });
    const outside: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('http://127.0.0.1')) outside.push(r.url());
    });
    const response = await page.goto('/docs/api');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    const doc = await (await request.get('/api/v1/openapi.json')).json();
    const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods as Record<string, { operationId: string }>));
    expect(operations.length).toBeGreaterThanOrEqual(28);
    for (const op of operations) await expect(page.locator(`section#${op.operationId}`)).toHaveCount(1);
    await expect(page.locator('section#refundPayment')).toContainText('OK.04.00');
    await expect(page.locator('section#refundPayment')).toContainText('ER.20.20');
    await expect(page.locator('section#listTransactions')).toContainText('starting_after');
    await expect(page.locator('section#updateLink')).toContainText('PATCH');
    await expect(page.locator('section#runScheduleNow')).toContainText('ER.12.32');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await page.locator('script[src]').count()).toBe(0);
    const results = await new AxeBuilder({ page }).include('main').analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.length}`)).toEqual([]);
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
  });
}
