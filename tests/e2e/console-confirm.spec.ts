import { type Browser, expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe.ts';
import { CARD_EXPIRY } from '../support/cards.ts';
import { scheduleData, signSchedule } from '../support/schedules.ts';
import { shoot } from '../support/screenshots.ts';

/**
 * Money and irreversible actions ask first, in Chromium, with JavaScript and without: a refund
 * states its consequence and is made on confirm, in at most 5 interactions from the payment's
 * page; Cancel schedule, Rotate API token and Remove user say what they end before they do it;
 * staff refund limits set by an owner refuse a staff refund; staff see links and their QR code.
 * axe on every confirm step; screenshots at 390 and 1280 px.
 */
const OWNER = { email: 'owner@acme.example', password: 'amber valley signal 11' };
const STAFF = { email: 'staff@acme.example', password: 'cedar window thunder 22' };
const TOKEN = 'e2e_token_acme_0123456789abcdefghijklmnop';
const SECRET = 'e2e_secret_acme_0123456789abcdefghijklmnop';

async function consolePage(browser: Browser, user: { email: string; password: string }, opts: { javaScript: boolean }) {
  const page = await (await browser.newContext({ javaScriptEnabled: opts.javaScript })).newPage();
  await page.goto('/console');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(`Signed in as ${user.email}`)).toBeVisible();
  return page;
}

/** A customer pays a link of Acme Books through the sandbox checkout; returns the transaction id. */
async function paid(browser: Browser, baseURL: string, amount: string): Promise<string> {
  const res = await fetch(`${baseURL}/pay/acme-tips`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: TOKEN, payment: { amount }, customer: { first_name: 'Jose', last_name: 'Rizal', contact: { email: 'jose@example.com' } } }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const page = await (await browser.newContext()).newPage();
  await page.goto(((await res.json()) as { link: string }).link);
  await page.getByLabel('Card number').fill('4242424242424242');
  await page.getByLabel('Expiry date').fill(CARD_EXPIRY.replace('/', ''));
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Jose Rizal');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  const txn = (await page.getByTestId('transaction-id').textContent())!.trim();
  await page.context().close();
  return txn;
}

/** Counts what a person does on a page: each fill, check and click is one interaction. */
function counted(page: Page) {
  let n = 0;
  const step = async (act: () => Promise<void>) => {
    n++;
    await act();
  };
  return {
    fill: (label: string | RegExp, value: string) => step(() => page.getByLabel(label).fill(value)),
    check: (label: string | RegExp) => step(() => page.getByLabel(label).check()),
    click: (name: string) => step(() => page.getByRole('button', { name, exact: true }).click()),
    get count() {
      return n;
    },
  };
}

for (const javaScript of [true, false]) {
  test(`console › a partial refund states its consequence and is made on confirm, in ≤ 5 interactions (JavaScript ${javaScript ? 'on' : 'off'})`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const txn = await paid(browser, baseURL!, '400.00');
    const page = await consolePage(browser, OWNER, { javaScript });
    await page.goto(`/console/payments/${txn}`);
    // Nothing is filled in for the person: the amount starts empty, the whole amount is a choice.
    await expect(page.getByLabel(/^Amount to refund/)).toHaveValue('');
    await expect(page.getByLabel(/whole remaining amount/)).not.toBeChecked();
    await expect(page.getByText('At most ₱400.00.')).toBeVisible();

    const act = counted(page);
    await act.fill(/^Amount to refund/, '150.00');
    await act.fill('Reason', 'Wrong size');
    await act.click('Review refund');
    const step = page.getByTestId('confirm-step');
    await expect(page.getByRole('heading', { name: 'Refund ₱150.00?' })).toBeVisible();
    await expect(step).toContainText('₱150.00 PHP goes back to the customer’s Visa •••• 4242.');
    await expect(step).toContainText('₱250.00 PHP can still be refunded after it.');
    await expect(step).toContainText('A refund cannot be undone.');
    // Until it is confirmed, nothing is refunded.
    await expect(page.locator('.timeline')).not.toContainText('refund of');
    if (javaScript) {
      await expectNoAxeViolations(page);
      await shoot(page, 'console-refund-confirm');
    }
    await act.click('Refund ₱150.00');
    await expect(page.getByRole('status')).toContainText('Partial refund successful — ₱150.00');
    await expect(page.locator('.timeline')).toContainText('Partial refund of ₱150.00 succeeded');
    expect(act.count).toBeLessThanOrEqual(5);
    expect(act.count).toBe(4);

    // The whole remaining amount, changed once on the way: Change keeps what was typed.
    await act.check(/whole remaining amount/);
    await act.fill('Reason', 'Order cancelled');
    await act.click('Review refund');
    await expect(page.getByTestId('confirm-step')).toContainText('₱250.00 PHP (the whole remaining amount) goes back');
    await expect(page.getByTestId('confirm-step')).toContainText('Nothing more can be refunded on this payment after it.');
    await act.click('Change the refund');
    await expect(page.getByLabel('Reason')).toHaveValue('Order cancelled');
    await expect(page.getByLabel(/whole remaining amount/)).toBeChecked();
    await act.click('Review refund');
    await act.click('Refund ₱250.00');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('₱400.00 Refunded');
    await page.context().close();
  });
}

for (const javaScript of [true, false]) {
  const js = `JavaScript ${javaScript ? 'on' : 'off'}`;
  /** axe runs in the page, so it is checked (and the page shot) where scripts may run. */
  const looked = async (page: Page, name: string) => {
    if (!javaScript) return;
    await expectNoAxeViolations(page);
    await shoot(page, name);
  };

  test(`console › cancel schedule says which charges stop; Keep changes nothing, confirm cancels (${js})`, async ({ browser, baseURL }) => {
    const schedule = await fetch(`${baseURL}/api/v1/schedule`, {
      method: 'POST',
      headers: { authorization: TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({
        payload: await signSchedule(
          scheduleData({ schedule: { second: '0', minute: '0', hour: '7', day_of_month: '1', month: '*', day_of_week: '*' }, route: { notify_user: false } }),
          { secret: SECRET, iat: new Date() },
        ),
      }),
    });
    const reference = ((await schedule.json()) as { data: { reference: string } }).data.reference;
    const page = await consolePage(browser, OWNER, { javaScript });
    await page.goto(`/console/schedules/${reference}`);
    await page.getByRole('button', { name: 'Cancel schedule…' }).click();
    const step = page.getByTestId('confirm-step');
    await expect(page.getByRole('heading', { name: 'Cancel this schedule?' })).toBeVisible();
    await expect(step).toContainText('No more charges will be made: 12 charges of ₱150.00 PHP were planned in the next 12 months');
    await expect(step).toContainText('cannot be restarted');
    await looked(page, 'console-schedule-cancel-confirm');
    await page.getByRole('link', { name: 'Keep the schedule' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('active');
    await page.getByRole('button', { name: 'Cancel schedule…' }).click();
    await page.getByRole('button', { name: 'Cancel the schedule' }).click();
    await expect(page.getByRole('status')).toContainText('The schedule is cancelled');
    await page.context().close();
  });

  test(`console › rotate API token says integrations stop working; Keep leaves the token working (${js})`, async ({ browser, baseURL }) => {
    const page = await consolePage(browser, OWNER, { javaScript });
    await page.goto('/console/developers');
    await page.getByLabel('Keep the old token working for').selectOption('none');
    await page.getByRole('button', { name: 'Rotate API token…' }).click();
    await expect(page.getByRole('heading', { name: 'Rotate the API token?' })).toBeVisible();
    await expect(page.getByTestId('confirm-step')).toContainText(
      'Integrations using the current token stop working: every API call with it is refused at once.',
    );
    await looked(page, 'console-rotate-token-confirm');
    await page.getByRole('link', { name: 'Keep the current one' }).click();
    await expect(page.getByTestId('new-secret')).toHaveCount(0);
    expect((await fetch(`${baseURL}/api/v1/integrator`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    await page.context().close();
  });

  test(`console › remove user says what ends, and removes on confirm (${js})`, async ({ browser }) => {
    const leaving = `leaving-${javaScript ? 'js' : 'nojs'}@acme.example`;
    const page = await consolePage(browser, OWNER, { javaScript });
    await page.goto('/console/users');
    await page.getByLabel('Email').fill(leaving);
    await page.getByRole('button', { name: 'Invite' }).click();
    await expect(page.getByRole('status')).toContainText(`${leaving} is invited.`);
    await page.getByRole('link', { name: leaving }).click();
    await page.getByRole('button', { name: `Remove ${leaving}…` }).click();
    const step = page.getByTestId('confirm-step');
    await expect(page.getByRole('heading', { name: `Remove ${leaving}?` })).toBeVisible();
    await expect(step).toContainText('Their invitation stops working');
    await expect(step).toContainText('This cannot be undone: to let them back in, invite them again.');
    await looked(page, 'console-remove-user-confirm');
    await page.getByRole('button', { name: `Remove ${leaving}`, exact: true }).click();
    await expect(page).toHaveURL(/\/console\/users$/);
    await expect(page.getByRole('link', { name: leaving })).toHaveCount(0);
    await page.context().close();
  });
}

test('console › an owner limits staff refunds; a staff refund above the limit is refused; staff copy links and QR codes', async ({ browser, baseURL }) => {
  test.setTimeout(60_000);
  const owner = await consolePage(browser, OWNER, { javaScript: true });
  await owner.goto('/console/users');
  await owner.getByLabel('Currency').fill('PHP');
  await owner.getByLabel('Per refund').fill('100.00');
  await owner.getByLabel('Per 24 hours').fill('300.00');
  await owner.getByRole('button', { name: 'Save limits' }).click();
  await expect(owner.getByRole('status')).toContainText('The staff refund limits in PHP are saved.');
  await expect(owner.getByRole('table', { name: 'Staff refund limits by currency' })).toContainText('100.00 PHP');
  await expectNoAxeViolations(owner);
  await shoot(owner, 'console-users-refund-limits');

  const txn = await paid(browser, baseURL!, '180.00');
  const staff = await consolePage(browser, STAFF, { javaScript: true });
  await staff.goto(`/console/payments/${txn}`);
  await staff.getByLabel(/^Amount to refund/).fill('120.00');
  await staff.getByLabel('Reason').fill('Late delivery');
  await staff.getByRole('button', { name: 'Review refund' }).click();
  await expect(staff.getByRole('alert')).toContainText('Refund above your per-refund limit');
  await expect(staff.getByText('is above what staff may refund at once (100.00 PHP)')).toBeVisible();
  await expect(staff.getByTestId('confirm-step')).toHaveCount(0);
  await expectNoAxeViolations(staff);

  // Staff see the payment links: the address to copy and the QR code, no editor.
  await staff.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Payment links' }).click();
  await expect(staff.getByRole('link', { name: 'New link' })).toHaveCount(0);
  await staff.getByRole('link', { name: 'Acme Books' }).click();
  await expect(staff.getByTestId('link-qr')).toBeVisible();
  await expect(staff.getByRole('button', { name: /Copy/ })).toBeVisible();
  await expect(staff.getByText('Only an owner of this account can change it.')).toBeVisible();
  await expectNoAxeViolations(staff);
  await shoot(staff, 'console-link-staff');

  await owner.goto('/console/users');
  await owner.getByLabel('Currency').fill('PHP');
  await owner.getByLabel('Per refund').fill('');
  await owner.getByLabel('Per 24 hours').fill('');
  await owner.getByRole('button', { name: 'Save limits' }).click();
  await expect(owner.getByRole('status')).toContainText('Staff refunds in PHP have no limit now.');
});
