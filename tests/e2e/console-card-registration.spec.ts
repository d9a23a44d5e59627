import { type Browser, expect, test } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe.ts';
import { CARD_EXPIRY } from '../support/cards.ts';
import { scheduleData, signSchedule } from '../support/schedules.ts';
import { shoot } from '../support/screenshots.ts';

/**
 * A card registration's console page in Chromium, with JavaScript and without: reached from the
 * list, it shows the card, the schedule charging it and the payment; Delete asks first, naming the
 * schedule it cancels, Keep changes nothing, and the confirm button deletes. axe on the page and its
 * confirm step; screenshots at 390 and 1280 px. Each run saves its own card, so the seeded one the
 * other specs charge is never deleted.
 */
const OWNER = { email: 'owner@acme.example', password: 'amber valley signal 11' };
const TOKEN = 'e2e_token_acme_0123456789abcdefghijklmnop';
const SECRET = 'e2e_secret_acme_0123456789abcdefghijklmnop';

async function api(baseURL: string, method: string, path: string, body: unknown) {
  const res = await fetch(`${baseURL}${path}`, { method, headers: { authorization: TOKEN, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status, `${method} ${path}`).toBe(200);
  return ((await res.json()) as { data: Record<string, any> }).data;
}

/** A customer saves a card on the hosted page; a monthly schedule charges it once. */
async function savedCardWithSchedule(browser: Browser, baseURL: string, name: string) {
  const created = await api(baseURL, 'POST', '/api/v1/card-registrations', { customer: { name, email: 'maria.santos@example.com' } });
  const customer = await (await browser.newContext()).newPage();
  await customer.goto(new URL(created.link).pathname);
  await customer.getByLabel('Card number').fill('4242424242424242');
  await customer.getByLabel('Expiry date').fill(CARD_EXPIRY);
  await customer.getByLabel('Security code').fill('123');
  await customer.getByLabel('Name on card').fill(name);
  await customer.getByRole('button', { name: 'Save card' }).click();
  await expect(customer.getByRole('heading', { name: 'Card saved' })).toBeVisible();
  await customer.context().close();
  const monthly = scheduleData({
    credit_card: { reference: created.reference },
    schedule: { second: '0', minute: '0', hour: '7', day_of_month: '1', month: '*', day_of_week: '*' },
    route: { notify_user: false },
  });
  const schedule = await api(baseURL, 'POST', '/api/v1/schedule', { payload: await signSchedule(monthly, { secret: SECRET, iat: new Date() }) });
  const run = await api(baseURL, 'POST', `/api/v1/schedules/${schedule.reference}/run`, {});
  return { reference: created.reference as string, schedule: schedule.reference as string, transaction: run.transaction_id as string };
}

for (const javaScript of [true, false]) {
  const js = `JavaScript ${javaScript ? 'on' : 'off'}`;

  test(`console › a card registration's page; Delete asks first, Keep changes nothing, confirm deletes (${js})`, async ({ browser, baseURL }) => {
    const saved = await savedCardWithSchedule(browser, baseURL!, javaScript ? 'Maria Santos' : 'Maria Santos Reyes');
    const page = await (await browser.newContext({ javaScriptEnabled: javaScript })).newPage();
    await page.goto('/console');
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText(`Signed in as ${OWNER.email}`)).toBeVisible();

    await page.goto('/console/card-registrations');
    await page.locator(`a[href="/console/card-registrations/${saved.reference}"]`).click();
    await expect(page).toHaveURL(new RegExp(`/console/card-registrations/${saved.reference}$`));
    await expect(page.getByText('Active: the card is saved and schedules can charge it.')).toBeVisible();
    await expect(page.locator(`a[href="/console/schedules/${saved.schedule}"]`)).toBeVisible();
    await expect(page.locator(`a[href="/console/payments/${saved.transaction}"]`)).toBeVisible();
    if (javaScript) {
      await expectNoAxeViolations(page);
      await shoot(page, 'console-card-registration');
    }

    await page.getByRole('button', { name: 'Delete card registration…' }).click();
    const step = page.getByTestId('confirm-step');
    await expect(page.getByRole('heading', { name: 'Delete this card registration?' })).toBeVisible();
    await expect(step).toContainText(`${saved.schedule} (₱150.00 PHP)`);
    await expect(step).toContainText('they must register their card again');
    if (javaScript) {
      await expectNoAxeViolations(page);
      await shoot(page, 'console-card-registration-delete-confirm');
    }
    await step.getByRole('link', { name: 'Keep the card registration' }).click();
    await expect(page.getByText('Active: the card is saved and schedules can charge it.')).toBeVisible();

    await page.getByRole('button', { name: 'Delete card registration…' }).click();
    await page.getByRole('button', { name: 'Delete the card registration' }).click();
    await expect(page.getByRole('status')).toContainText('The card registration is deleted; the schedules that charged it are cancelled.');
    await expect(page.getByText('Deleted: it can no longer be charged')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Delete card registration…' })).toHaveCount(0);
    if (javaScript) {
      await expectNoAxeViolations(page);
      await shoot(page, 'console-card-registration-deleted');
    }
    const registration = await fetch(`${baseURL}/api/v1/card-registrations/${saved.reference}`, { headers: { authorization: TOKEN } });
    expect(((await registration.json()) as { data: { card_registration: { status: string } } }).data.card_registration.status).toBe('deleted');
    await page.goto(`/console/schedules/${saved.schedule}`);
    await expect(page.locator('h1')).toContainText('cancelled');
  });
}
