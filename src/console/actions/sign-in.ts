import { busyPage, clearSessionCookie, readPreSessionForm, requestOrigin, sessionToken, setSessionCookie } from '../../api/console.ts';
import { consoleRefusal } from '../../api/console-forms.ts';
import { completeSecondFactor, signIn } from '../../domain/accounts/sessions.ts';
import { DomainError, type Messages } from '../../domain/errors.ts';
import type { ConsoleAstro } from '../entry.ts';

/**
 * The sign-in pages' forms. They come before any session, so they do not go through the
 * console's entry: their forms carry the pre-session token (double submit) instead.
 */
export interface PreSessionAstro extends Omit<ConsoleAstro, 'response'> {
  response: { status?: number; readonly headers: Headers };
}

/** What the page shows again after a refused form. */
export interface SignInOutcome {
  messages: Messages;
  email: string;
}

/** A refusal said in one sentence above the form, with the wait when it has one. */
function refuse(astro: PreSessionAstro, error: unknown): Messages {
  const refused = consoleRefusal(error);
  astro.response.status = refused.status;
  if (error instanceof DomainError && error.retryAfterSeconds !== undefined) astro.response.headers.set('retry-after', String(error.retryAfterSeconds));
  return { '(request)': Object.values(refused.messages).flat() };
}

/** Email and password: signed in (or on to the code), else the refusal; `next` is already safe. */
export async function signInWithPassword(astro: PreSessionAstro, next: string): Promise<SignInOutcome | Response> {
  const app = astro.locals.paylink;
  try {
    app.passwords.assertRoom();
  } catch (error) {
    if (error instanceof DomainError) return busyPage(error);
    throw error;
  }
  const form = await readPreSessionForm(astro);
  if (form instanceof Response) return form;
  const email = form.field('email').slice(0, 254);
  const password = form.field('password');
  const ip = astro.locals.clientIp ?? 'unknown';
  if (!email.trim() || !password) {
    astro.response.status = 422;
    return { email, messages: { '(request)': ['Enter your email and password.'] } };
  }
  let counted = false;
  try {
    await app.rateLimits.beginSignIn(ip);
    counted = true;
    const outcome = await signIn(app, { email, password }, requestOrigin(astro));
    if (outcome.kind === 'signed-in' || outcome.kind === 'second-factor') {
      await app.rateLimits.signInDidNotFail(ip);
      setSessionCookie(astro, outcome.token);
      return astro.redirect(outcome.kind === 'signed-in' ? next : `/console/sign-in/code?next=${encodeURIComponent(next)}`, 303);
    }
    // A locked account answers as a wrong password does: only its owner learns of the lock (by e-mail).
    astro.response.status = 401;
    return {
      email,
      messages: {
        '(request)': [
          'The email or password is not right. Check both and try again. After many failed sign-ins an account is locked for a while; its owner gets an e-mail.',
        ],
      },
    };
  } catch (error) {
    // Refused before any password was checked (too busy): not a failed sign-in.
    if (counted) await app.rateLimits.signInDidNotFail(ip);
    return { email, messages: refuse(astro, error) };
  }
}

/** The code from the authenticator app, for the session waiting on its second step. */
export async function signInWithCode(astro: PreSessionAstro, next: string): Promise<SignInOutcome | Response> {
  const app = astro.locals.paylink;
  const pending = sessionToken(astro);
  if (!pending) return astro.redirect('/console/sign-in', 303);
  const form = await readPreSessionForm(astro);
  if (form instanceof Response) return form;
  const ip = astro.locals.clientIp ?? 'unknown';
  try {
    await app.rateLimits.beginSignIn(ip);
    const outcome = await completeSecondFactor(app, pending, form.field('code'), requestOrigin(astro));
    if (outcome.kind === 'signed-in') {
      await app.rateLimits.signInDidNotFail(ip);
      setSessionCookie(astro, outcome.token);
      return astro.redirect(next, 303);
    }
    if (outcome.kind === 'refused') {
      clearSessionCookie(astro);
      return astro.redirect('/console/sign-in', 303);
    }
    if (outcome.kind === 'locked') {
      clearSessionCookie(astro);
      astro.response.status = 423;
      return {
        email: '',
        messages: { '(request)': [`This account is locked after too many failed sign-ins. Try again after ${outcome.until.toISOString().slice(11, 16)} UTC.`] },
      };
    }
    astro.response.status = 401;
    return { email: '', messages: { code: ['is neither the current code from your authenticator app nor an unused recovery code'] } };
  } catch (error) {
    return { email: '', messages: refuse(astro, error) };
  }
}
