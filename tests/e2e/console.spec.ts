import { type Browser, expect, type Page, test } from '@playwright/test';
import { totpCode } from '../../src/domain/accounts/totp.ts';
import { expectNoAxeViolations } from '../support/axe.ts';
import { shoot } from '../support/screenshots.ts';

/**
 * The merchant console's floor in Chromium: sign-in, lockout, sessions, CSRF, one integrator's
 * data only, users, activity and two-step sign-in; axe on every page, keyboard only, 390 px.
 * Users come from tests/e2e/fixtures/seed.json.
 */
const OWNER = { email: 'owner@acme.example', password: 'amber valley signal 11' };
const STAFF = { email: 'staff@acme.example', password: 'cedar window thunder 22' };
const LOCKED = { email: 'locked@acme.example', password: 'granite puzzle harbor 33' };
const TOTP_OWNER = { email: 'totp@acme.example', password: 'violet engine meadow 44' };
const OTHER = { email: 'owner@other.example', password: 'orbit pebble canyon 55' };

async function signIn(page: Page, user: { email: string; password: string }) {
  await page.goto('/console');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Every console page loads no script file (the budget is 40 KB gzip; the floor needs none but the menu's one inline line). */
function scriptsLoaded(page: Page) {
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
  return scripts;
}

async function newPage(browser: Browser) {
  const context = await browser.newContext();
  return context.newPage();
}

test('console › signs in by keyboard alone, shows the shell, and every page passes axe at 390 px and 1280 px without JavaScript', async ({ page }) => {
  const scripts = scriptsLoaded(page);
  await page.goto('/console');
  await expect(page).toHaveURL(/\/console\/sign-in$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, 'console-sign-in');
  await page.keyboard.press('Tab'); // the brand link
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.type(OWNER.email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(OWNER.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/console$/);
  await expect(page.getByRole('heading', { name: 'Acme Books' })).toBeVisible();
  await expect(page.getByText(`Signed in as ${OWNER.email} (owner).`)).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, 'console-home');
  for (const [path, name] of [
    ['/console/users', 'users'],
    ['/console/activity', 'activity'],
    ['/console/account', 'account'],
  ] as const) {
    await page.goto(path);
    await expectNoAxeViolations(page);
    await shoot(page, `console-${name}`);
  }
  await page.goto('/console/users');
  await page.getByRole('link', { name: STAFF.email }).click();
  await expect(page.getByRole('heading', { name: STAFF.email })).toBeVisible();
  await expectNoAxeViolations(page);
  expect(scripts).toEqual([]);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'paylink_console')!;
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
});

test('console › locks an account after 10 wrong passwords and refuses the right one while locked, in the words of a wrong one', async ({ page }) => {
  for (let i = 1; i <= 10; i++) {
    await signIn(page, { email: LOCKED.email, password: `wrong password number ${i}` });
    await expect(page.getByRole('alert')).toContainText('The email or password is not right.');
  }
  await signIn(page, LOCKED);
  // Only the account's owner learns of the lock (by e-mail): the page says what it says to anyone.
  await expect(page.getByRole('alert')).toContainText('The email or password is not right.');
  await expect(page.getByRole('alert')).toContainText('After many failed sign-ins an account is locked for a while; its owner gets an e-mail.');
  await expect(page).toHaveURL(/\/console\/sign-in$/);
  await expectNoAxeViolations(page);
});

test('console › another integrator’s user is a 404, whatever URL is typed', async ({ page, browser }) => {
  await signIn(page, OWNER);
  await page.goto('/console/users');
  const staffHref = await page.getByRole('link', { name: STAFF.email }).getAttribute('href');
  const other = await newPage(browser);
  await signIn(other, OTHER);
  await expect(other.getByRole('heading', { name: 'Other Shop' })).toBeVisible();
  const res = await other.goto(staffHref!);
  expect(res!.status()).toBe(404);
  await expect(other.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await other.goto('/console/users');
  await expect(other.getByText(STAFF.email)).toHaveCount(0);
  await expectNoAxeViolations(other);
});

test('console › refuses a form with a tampered CSRF token and a cross-site form, and changes nothing', async ({ page }) => {
  await signIn(page, OWNER);
  await page.goto('/console/users');
  await page.getByRole('link', { name: STAFF.email }).click();
  const userUrl = page.url();
  await page.locator('form:has(button.danger) input[name="_csrf"]').evaluate((input: HTMLInputElement) => {
    input.value = 'forged-token';
  });
  await page.getByRole('button', { name: `Remove ${STAFF.email}` }).click();
  await expect(page.getByRole('heading', { name: 'This form was refused' })).toBeVisible();

  // A page elsewhere posts a form to the console (its origin is opaque: about:blank).
  await page.goto('about:blank');
  await page.setContent(`<form method="post" action="${userUrl}"><input name="action" value="remove"><button>Go</button></form>`);
  await page.getByRole('button', { name: 'Go' }).click();
  // The browser withholds the SameSite=Lax cookie from a cross-site POST: no session, so the
  // console sends it to sign in (and, as the browser is signed in, on to the home page).
  await expect(page).toHaveURL(/\/console(\/sign-in)?$/);

  await page.goto(userUrl);
  await expect(page.getByRole('heading', { name: STAFF.email })).toBeVisible();
});

test('console › an owner invites staff, who sets a password (a common one is refused), signs in and sees no owner pages', async ({ page, browser }) => {
  await signIn(page, OWNER);
  await page.goto('/console/users');
  await page.getByLabel('Email').fill('new.staff@acme.example');
  await page.getByRole('button', { name: 'Invite' }).click();
  const link = (await page.getByTestId('invite-url').textContent())!;
  // Shown once: a copy button beside the selectable link.
  await expect(page.getByRole('button', { name: 'Copy invite link' })).toBeVisible();
  const invitee = await newPage(browser);
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
  await expect(invitee.getByTestId('invite-for')).toContainText('This invitation is for new.staff@acme.example, to join Acme Books as staff');
  await expectNoAxeViolations(invitee);
  await invitee.getByLabel('Password', { exact: true }).fill('password1234');
  await invitee.getByLabel('Password again').fill('password1234');
  await invitee.getByRole('button', { name: 'Set password' }).click();
  await expect(invitee.getByText('Password is one of the most common passwords')).toBeVisible();
  await expectNoAxeViolations(invitee);
  await invitee.getByLabel('Password', { exact: true }).fill('maple river candle 42');
  await invitee.getByLabel('Password again').fill('maple river candle 42');
  await invitee.getByRole('button', { name: 'Set password' }).click();
  await signIn(invitee, { email: 'new.staff@acme.example', password: 'maple river candle 42' });
  await expect(invitee.getByText('Signed in as new.staff@acme.example (staff).')).toBeVisible();
  await expect(invitee.getByRole('link', { name: 'Users' })).toHaveCount(0);
  expect((await invitee.goto('/console/activity'))!.status()).toBe(404);

  await page.goto('/console/activity');
  await expect(page.getByRole('cell', { name: 'Invited new.staff@acme.example as staff' })).toBeVisible();
  await expect(page.getByRole('row', { name: /new\.staff@acme\.example .*Accepted the invitation and chose a password/ })).toBeVisible();
});

test('console › an owner turns on two-step sign-in, saves the recovery codes; sign-in then asks for the code, or takes a recovery code once', async ({
  page,
}) => {
  test.setTimeout(120_000); // waits for the next 30-second TOTP step
  await signIn(page, TOTP_OWNER);
  await page.goto('/console/account');
  await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, 'console-totp-enrolment');
  const secret = (await page.locator('code.secret').textContent())!.replace(/\s/g, '');
  await page.getByRole('textbox', { name: 'Code' }).fill(totpCode(secret, new Date()));
  await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
  await expect(page.getByRole('status')).toContainText('Two-step sign-in is on');
  const saved = page.getByTestId('recovery-codes');
  await expect(saved.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
  const codes = await saved.locator('ol.recovery-codes li').allTextContents();
  expect(codes).toHaveLength(10);
  await expect(saved.getByRole('link', { name: 'Download as .txt' })).toHaveAttribute('download', 'paylink-recovery-codes.txt');
  await expect(saved.getByRole('button', { name: 'Copy codes' })).toBeVisible();
  await expect(page.getByTestId('codes-left')).toContainText('10 recovery codes left');
  await expectNoAxeViolations(page);
  await shoot(page, 'console-recovery-codes');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/console\/sign-in$/);

  await signIn(page, TOTP_OWNER);
  await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('textbox', { name: 'Code' }).fill('000000');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Code is neither the current code')).toBeVisible();
  // The code used at enrolment cannot be used again: wait for the next 30-second step.
  const step = Math.floor(Date.now() / 30_000);
  while (Math.floor(Date.now() / 30_000) === step) await page.waitForTimeout(500);
  await page.getByRole('textbox', { name: 'Code' }).fill(totpCode(secret, new Date()));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(`Signed in as ${TOTP_OWNER.email} (owner).`)).toBeVisible();

  // The phone is lost: a recovery code signs in once, and the account page counts what is left.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, TOTP_OWNER);
  await page.getByRole('link', { name: 'Lost your phone? Use a recovery code' }).click();
  await expect(page.getByRole('heading', { name: 'Enter a recovery code' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('textbox', { name: 'Recovery code' }).fill(codes[0]!);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(`Signed in as ${TOTP_OWNER.email} (owner).`)).toBeVisible();
  await page.goto('/console/account');
  await expect(page.getByTestId('codes-left')).toContainText('9 recovery codes left');
});

test('console › an owner resets a staff member’s two-step sign-in after a confirm step; they then sign in with their password alone', async ({
  page,
  browser,
}) => {
  // The user with two-step sign-in on from the test before, made staff first.
  await signIn(page, OWNER);
  await page.goto('/console/users');
  await page.getByRole('link', { name: TOTP_OWNER.email }).click();
  await page.getByLabel('Role').selectOption('staff');
  await page.getByRole('button', { name: 'Change role' }).click();
  await expect(page.getByRole('status')).toContainText('The role is changed');
  await expect(page.getByTestId('user-totp')).toContainText('On since');
  await page.getByRole('button', { name: 'Reset two-step sign-in…' }).click();
  const step = page.getByTestId('confirm-step');
  await expect(step.getByRole('heading', { name: `Reset two-step sign-in of ${TOTP_OWNER.email}?` })).toBeVisible();
  await expect(step).toContainText('all their recovery codes stop working');
  await expect(step).toContainText(`They are e-mailed that ${OWNER.email} reset it`);
  await expectNoAxeViolations(page);
  await shoot(page, 'console-reset-second-factor');
  await step.getByRole('button', { name: 'Reset two-step sign-in' }).click();
  await expect(page.getByRole('status')).toContainText('Their two-step sign-in is reset');
  await expect(page.getByTestId('user-totp')).toContainText('Off');

  const them = await newPage(browser);
  await signIn(them, TOTP_OWNER);
  await expect(them.getByText(`Signed in as ${TOTP_OWNER.email} (staff).`)).toBeVisible();
  await page.goto('/console/activity');
  await expect(page.getByText(`Reset the two-step sign-in of ${TOTP_OWNER.email}`)).toBeVisible();
});

test('console › signing out ends the session: the back button shows no account data', async ({ page }) => {
  await signIn(page, STAFF);
  await expect(page.getByText(`Signed in as ${STAFF.email} (staff).`)).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/console\/sign-in$/);
  await page.goto('/console/account');
  await expect(page).toHaveURL(/\/console\/sign-in\?next=/);
});
