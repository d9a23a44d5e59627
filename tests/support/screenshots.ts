import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';

/** Where the end-to-end suite leaves its screenshots, to be looked at (docs/testing.md). */
export const SCREENSHOTS = join(process.cwd(), '.tmp', 'e2e-results', 'screenshots');

/** The widths every page is looked at: a phone's and a desktop's. */
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

/**
 * The page as it stands, at phone and desktop width, full length: `<name>-390.png` and
 * `<name>-1280.png` in SCREENSHOTS. `settleMs`: a wait after each resize, for what follows the
 * width late (the console's preview frame).
 */
export async function shoot(page: Page, name: string, opts: { settleMs?: number } = {}): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const { width, height } of SIZES) {
    await page.setViewportSize({ width, height });
    if (opts.settleMs) await page.waitForTimeout(opts.settleMs);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
}
