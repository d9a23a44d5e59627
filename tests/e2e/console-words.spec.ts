import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from '../support/axe.ts';
import { scheduleData, signSchedule } from '../support/schedules.ts';
import { shoot } from '../support/screenshots.ts';

/**
 * The console speaks words, not codes: every page an owner or a staff member can reach, and the
 * messages after actions and refusals, show no `OK.xx.yy` / `ER.xx.yy` code, raw cron pattern,
 * environment variable or HTTP path outside the small "Reference: …" line kept for support.
 * Then the activity log's filters and links, by keyboard-free clicks; axe on each page.
 */
const OWNER = { email: 'owner@acme.example', password: 'amber valley signal 11' };
const STAFF = { email: 'staff@acme.example', password: 'cedar window thunder 22' };
const TOKEN = 'e2e_token_acme_0123456789abcdefghijklmnop';
const SECRET = 'e2e_secret_acme_0123456789abcdefghijklmnop';

/** What must not show in the console's words (a support reference line is exempt). */
const CODES: [string, RegExp][] = [
  ['a status code', /\b(?:OK|ER)\.\d{2}\.\d{2}\b/],
  // Six fields of digits, *, ?, ranges, steps, lists or upper-case names (0 0 7 1 * *, 0 30 9 ? * MON-FRI).
  ['a cron pattern', /(?:^|\s)[0-9*?/,-]+(?: [0-9A-Z*?/,#-]+){5}(?=\s|$)/],
  ['an environment variable', /\b(?:PAYLINK_[A-Z_]+|SMTP_URL|PUBLIC_URL|DATABASE_URL)\b/],
  ['an HTTP path', /\b(?:GET|POST|PUT|PATCH|DELETE) \/[\w{}/.-]*/],
  ['an ISO format name', /\bISO \d{4}\b/],
];

async function signIn(page: Page, user: { email: string; password: string }) {
  await page.goto('/console/sign-in');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/console$/);
}

/** The page's rendered text without its support references, and what of CODES it shows. */
async function codesShown(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => {
    for (const el of document.querySelectorAll('[data-support-reference]')) el.remove();
    return document.body.innerText;
  });
  return CODES.filter(([, pattern]) => pattern.test(text)).map(([what, pattern]) => `${what}: “${pattern.exec(text)![0].trim()}” on ${page.url()}`);
}

/** A schedule through the API (its JWT signed with the seed's secret): the reference. */
async function createSchedule(baseURL: string, schedule: Record<string, string>): Promise<string> {
  const payload = await signSchedule(scheduleData({ schedule, route: { notify_user: false } }), { secret: SECRET, iat: new Date() });
  const res = await fetch(`${baseURL}/api/v1/schedule`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: TOKEN },
    body: JSON.stringify({ payload }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { reference: string } }).data.reference;
}

/**
 * Every console page reachable from Home by the console's own links (one of each kind of page:
 * the first payment, schedule, link and user of each list), as the signed-in user.
 */
async function walk(page: Page, limit = 40): Promise<string[]> {
  const seen = new Set<string>();
  const kinds = new Set<string>();
  const queue = ['/console'];
  const problems: string[] = [];
  while (queue.length > 0 && seen.size < limit) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    const res = await page.goto(path);
    expect(res?.status(), path).toBeLessThan(500);
    problems.push(...(await codesShown(page)));
    const hrefs = await page.locator('a[href^="/console"]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    for (const href of hrefs) {
      const clean = href.split('#')[0]!;
      if (/sign-out|\.csv|preview/.test(clean)) continue;
      // One page of each kind: /console/payments/txn_1 and /console/payments/txn_2 read the same.
      const kind = clean.replace(/\?.*$/, '').replace(/\/(txn|sch|usr|rfd)_[\w-]+$/, '/:id');
      if (clean.includes('?') || kinds.has(kind)) continue;
      kinds.add(kind);
      queue.push(clean);
    }
  }
  expect(seen.size).toBeGreaterThan(5);
  return problems;
}

test('console › every page speaks words: no codes, cron, variables or paths outside a reference line (owner and staff)', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const monthly = await createSchedule(baseURL!, { second: '0', minute: '0', hour: '7', day_of_month: '1', month: '*', day_of_week: '*' });
  await signIn(page, OWNER);
  const problems = await walk(page);

  // The schedule reads in words, with the next charge in its own offset and UTC on hover.
  await page.goto(`/console/schedules/${monthly}`);
  await expect(page.getByText('Every month on the 1st at 07:00, UTC+08:00')).toBeVisible();
  const next = page.locator('dd time').first();
  await expect(next).toHaveText(/^\d{4}-\d{2}-01 07:00 UTC\+08:00$/);
  await expect(next).toHaveAttribute('title', /^\d{4}-\d{2}-(?:28|29|30|31) 23:00 UTC$/);
  await expectNoAxeViolations(page);
  await shoot(page, 'console-schedule-words');

  // After actions and refusals: the words, and the code only in the reference line.
  await page.getByRole('button', { name: 'Cancel schedule…' }).click();
  await page.getByRole('button', { name: 'Cancel the schedule' }).click();
  await expect(page.getByRole('status')).toContainText('The schedule is cancelled; it charges nothing more.');
  await expect(page.locator('[data-support-reference]')).toHaveText('Reference: OK.12.20');
  problems.push(...(await codesShown(page)));

  await page.goto('/console/schedules');
  await expect(page.getByText('Every month on the 1st at 07:00, UTC+08:00').first()).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, 'console-schedules-words');

  await page.goto('/console/account');
  await expect(page.locator('td.user-agent').first()).toHaveText(/^Chrome \d+ on Windows 10$/);
  await expectNoAxeViolations(page);
  await shoot(page, 'console-sessions');

  const staff = await (await browser.newContext()).newPage();
  await signIn(staff, STAFF);
  problems.push(...(await walk(staff)));
  expect(problems).toEqual([]);
});

test('console › activity: filters by who and what, and its targets link to what they concern', async ({ page, browser, baseURL }) => {
  const reference = await createSchedule(baseURL!, { second: '0', minute: '30', hour: '9', day_of_month: '*', month: '*', day_of_week: '1-5' });
  const staff = await (await browser.newContext()).newPage();
  await signIn(staff, STAFF);
  await staff.goto(`/console/schedules/${reference}`);
  await expect(staff.getByText('Every weekday (Monday to Friday) at 09:30, UTC+08:00')).toBeVisible();
  await staff.getByRole('button', { name: 'Cancel schedule…' }).click();
  await staff.getByRole('button', { name: 'Cancel the schedule' }).click();
  await expect(staff.getByRole('status')).toContainText('The schedule is cancelled');

  await signIn(page, OWNER);
  await page.goto('/console/activity');
  await expect(page.getByRole('cell', { name: /^Signed in$/ }).first()).toBeVisible();
  await page.getByLabel('Who').selectOption(STAFF.email);
  await page.getByLabel('What').selectOption({ label: 'Schedules' });
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/\/console\/activity\?user=staff%40acme\.example&action=schedules$/);
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`Cancelled the schedule ${reference}`);
  await expect(rows.first()).toContainText(STAFF.email);
  await expectNoAxeViolations(page);
  await shoot(page, 'console-activity-filtered');
  expect(await codesShown(page)).toEqual([]);

  await page.getByLabel('What').selectOption({ label: 'Sign-ins and sign-outs' });
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.locator('tbody tr').first()).toContainText('Signed in');
  await expect(page.locator('tbody')).not.toContainText('Cancelled the schedule');
  await expect(page.locator('tbody td.who').filter({ hasNotText: STAFF.email })).toHaveCount(0);

  await page.getByRole('link', { name: 'Clear' }).click();
  await expect(page).toHaveURL(/\/console\/activity$/);
  await shoot(page, 'console-activity');
  await page
    .getByRole('row', { name: new RegExp(`Cancelled the schedule ${reference}`) })
    .getByRole('link', { name: 'View schedule' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/console/schedules/${reference}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText('cancelled');
});
