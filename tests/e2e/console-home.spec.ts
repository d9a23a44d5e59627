import { type Browser, expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe.ts';
import { CARD_EXPIRY } from '../support/cards.ts';
import { shoot } from '../support/screenshots.ts';

/**
 * Home's lists and test-mode band, the payments filters, the receipt's print view and the number
 * of interactions a refund takes, in Chromium at 390 and 1280 px; axe on every page.
 */
const OWNER = { email: 'owner@acme.example', password: 'amber valley signal 11' };
const TOKEN = 'e2e_token_acme_0123456789abcdefghijklmnop';

/** A customer pays a dynamic link of acme-books (the sandbox checkout), e-mailed a receipt; the page stays on the receipt. */
async function payAsCustomer(page: Page, baseURL: string, email: string): Promise<string> {
  const res = await fetch(`${baseURL}/pay/acme-books`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      key: TOKEN,
      customer: { first_name: 'Rosalinda', last_name: 'Villanueva-Santiago', contact: { email } },
      route: { notify_user: true },
    }),
  });
  expect(res.status).toBe(200);
  await page.goto(((await res.json()) as { link: string }).link);
  // Typed once the form is alive, so the expiry is formatted as it is typed.
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeEnabled();
  await page.getByLabel('Card number').fill('4242424242424242');
  await page.getByLabel('Expiry date').fill(CARD_EXPIRY.replace('/', ''));
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Rosalinda Villanueva');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  return (await page.getByTestId('transaction-id').textContent())!.trim();
}

async function signedIn(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto('/console/sign-in');
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/console$/);
  return page;
}

test('receipt › says where it was e-mailed, and prints without the page’s buttons and footer', async ({ page, baseURL }) => {
  await payAsCustomer(page, baseURL!, 'rosalinda.villanueva@example.com');
  await expect(page.getByTestId('receipt-item')).toHaveText('Acme Books');
  // This server has no mail server: the receipt first says the e-mail is being sent, and once the
  // mailer has saved it as a file (not an e-mail the customer gets) it says nothing about it.
  const emailLine = page.getByTestId('receipt-email');
  if ((await emailLine.count()) > 0) await expect(emailLine).toContainText('rosalinda.villanueva@example.com');
  await expect
    .poll(async () => {
      await page.reload();
      return page.getByTestId('receipt-email').count();
    })
    .toBe(0);
  await expect(page.getByTestId('receipt-item')).toHaveText('Acme Books');
  const print = page.getByRole('button', { name: 'Print or save as PDF' });
  await expect(print).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, 'checkout-receipt');
  await page.emulateMedia({ media: 'print' });
  await expect(print).toBeHidden();
  await expect(page.locator('.site-footer')).toBeHidden();
  await expect(page.getByTestId('transaction-id')).toBeVisible();
  await shoot(page, 'checkout-receipt-print');
  // The button opens the browser's print dialog (window.print), which Playwright cannot see: stub it and count.
  await page.emulateMedia({ media: 'screen' });
  await page.evaluate(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => {
      (window as unknown as { printed: number }).printed++;
    };
  });
  await print.click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
});

test('console › home lists recent and failed payments, offers New link and says Test mode on every page', async ({ browser, baseURL }) => {
  const customer = await (await browser.newContext()).newPage();
  const txn = await payAsCustomer(customer, baseURL!, 'home.journey@example.com');
  const page = await signedIn(browser);
  await expect(page.getByTestId('console-test-mode')).toContainText('Test mode');
  const recent = page.getByRole('region', { name: 'Recent payments' });
  // Listed by its time; not necessarily first: another spec's schedule may charge meanwhile.
  await expect(recent.locator(`a[href="/console/payments/${txn}"]`)).toHaveAccessibleName(/UTC$/);
  await expect(page.getByRole('region', { name: 'Failed payments' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Schedules that need attention' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'New link' })).toHaveAttribute('href', '/console/links/new');
  await expectNoAxeViolations(page);
  await shoot(page, 'console-home-lists');

  // On a phone the menu scrolls sideways: the current page's tab is scrolled into view.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [path, tab] of [
    ['/console/account', 'Your account'],
    ['/console/developers', 'Developers'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByTestId('console-test-mode')).toBeVisible();
    const box = (await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: tab }).boundingBox())!;
    expect(box.x, tab).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, tab).toBeLessThanOrEqual(390);
  }
  // And when the window narrows after the page loaded (a phone turned, a window resized).
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/console/schedules');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(async () => {
    const box = (await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Schedules' }).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }).toPass({ timeout: 5_000 });
  await shoot(page, 'console-developers-nav');
});

test('console › payments filters by a status and a link picked from lists', async ({ browser, baseURL }) => {
  const customer = await (await browser.newContext()).newPage();
  const txn = await payAsCustomer(customer, baseURL!, 'filters.journey@example.com');
  const page = await signedIn(browser);
  await page.goto('/console/payments');
  await page.getByLabel('Status').selectOption({ label: 'Succeeded' });
  await page.getByLabel('Link').selectOption({ label: 'Acme Books (acme-books)' });
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/status=succeeded/);
  await expect(page).toHaveURL(/link=acme-books/);
  await expect(page.locator(`a[href="/console/payments/${txn}"]`)).toBeVisible();
  // Fields on one line have their labels on one line too (the Link label was lower than the others).
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    const fields = await page.locator('form.filters .field').evaluateAll((fs) =>
      fs.map((f) => ({
        label: Math.round(f.querySelector('label')!.getBoundingClientRect().top),
        control: Math.round(f.querySelector('select, input')!.getBoundingClientRect().top),
        hinted: f.querySelector('.hint') !== null,
      })),
    );
    const link = fields[3]!;
    const beside = fields.filter((f) => f.control === link.control && !f.hinted);
    expect(beside.length, `width ${width}`).toBeGreaterThanOrEqual(1);
    for (const f of beside) expect(f.label, `width ${width}`).toBe(link.label);
  }
  await expectNoAxeViolations(page);
  await shoot(page, 'console-payments-filters');
  await page.getByLabel('Status').selectOption({ label: 'Refunded' });
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.locator(`a[href="/console/payments/${txn}"]`)).toHaveCount(0);
});

test('console › refunds a payment from the payments list, confirm step included, in at most 5 interactions', async ({ browser, baseURL }) => {
  const customer = await (await browser.newContext()).newPage();
  const txn = await payAsCustomer(customer, baseURL!, 'refund.timing@example.com');
  const page = await signedIn(browser);
  await page.goto(`/console/payments?q=${txn}`);
  // Every click and every field filled by the person, counted in the page across navigations.
  await page.addInitScript(() => {
    const bump = (e: Event) => {
      if (e.isTrusted) sessionStorage.setItem('interactions', String(Number(sessionStorage.getItem('interactions') ?? 0) + 1));
    };
    document.addEventListener('click', bump, true);
    document.addEventListener('input', bump, true);
  });
  await page.reload();
  const interactions = async () => Number(await page.evaluate(() => sessionStorage.getItem('interactions') ?? 0));
  expect(await interactions()).toBe(0);

  await page.locator(`a[href="/console/payments/${txn}"]`).click();
  await page.getByLabel(/^Amount/).fill('40.00');
  await page.getByLabel('Reason').fill('Late delivery');
  await page.getByRole('button', { name: 'Review refund' }).click();
  await expect(page.getByRole('heading', { name: 'Refund ₱40.00?' })).toBeVisible();
  await page.getByRole('button', { name: 'Refund ₱40.00' }).click();
  await expect(page.getByRole('status')).toContainText('Partial refund successful — ₱40.00');
  expect(await interactions()).toBeLessThanOrEqual(5);
  expect(await interactions()).toBeGreaterThanOrEqual(4);
});

test('console › a payment leads to its customer: their payments, cards and schedules', async ({ browser, baseURL }) => {
  const customer = await (await browser.newContext()).newPage();
  const txn = await payAsCustomer(customer, baseURL!, 'customer.view@example.com');
  const page = await signedIn(browser);
  await page.goto(`/console/payments/${txn}`);
  await page.getByRole('link', { name: 'Customer’s payments, cards and schedules' }).click();
  await expect(page).toHaveURL(/\/console\/customer\?email=customer\.view%40example\.com$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('customer.view@example.com');
  await expect(page.getByRole('region', { name: 'Payments' }).locator(`a[href="/console/payments/${txn}"]`)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Card registrations' })).toContainText('No card registered with this e-mail.');
  await expectNoAxeViolations(page);
  await shoot(page, 'console-customer');
});

test('console › resends a receipt from the payment’s page and says where it went', async ({ browser, baseURL }) => {
  const customer = await (await browser.newContext()).newPage();
  const txn = await payAsCustomer(customer, baseURL!, 'resend.receipt@example.com');
  const page = await signedIn(browser);
  // Once the mailer has taken the first e-mail (no mail server here: written to a file), it may be sent again.
  await expect(async () => {
    await page.goto(`/console/payments/${txn}`);
    await expect(page.getByRole('button', { name: 'Resend receipt' })).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Resend receipt' }).click();
  await expect(page.getByRole('status')).toHaveText('The receipt is queued to be e-mailed again to resend.receipt@example.com. Reference: OK.20.60');
  await expectNoAxeViolations(page);
  await shoot(page, 'console-payment-resend');
});
