import type { Page } from '@playwright/test';

/**
 * Holds back the script of an island (`CardForm`, `PaymongoCardForm`…) until the returned function is
 * called: the page shows its server-rendered form, not yet alive, as on a slow connection, so a test
 * can type into it before hydration.
 */
export async function holdIsland(page: Page, component: string): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/_astro/${component}*.js`, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}
