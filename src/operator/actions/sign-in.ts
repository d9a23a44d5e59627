import { busyPage, readPreSessionForm, requestOrigin } from '../../api/console.ts';
import { consoleRefusal } from '../../api/console-forms.ts';
import { clearOperatorCookie, operatorToken, setOperatorCookie } from '../../api/operator.ts';
import type { PreSessionAstro, SignInOutcome } from '../../console/actions/sign-in.ts';
import { DomainError, type Messages } from '../../domain/errors.ts';
import { operatorSecondFactor, operatorSignIn } from '../../domain/operators/accounts.ts';

/**
 * The operator sign-in pages' forms, with the console's rules (src/console/actions/sign-in.ts):
 * the busy refusal before any work, the per-address failure limit, one answer for every refusal.
 */
function refuse(astro: PreSessionAstro, error: unknown): Messages {
  const refused = consoleRefusal(error);
  astro.response.status = refused.status;
  if (error instanceof DomainError && error.retryAfterSeconds !== undefined) astro.response.headers.set('retry-after', String(error.retryAfterSeconds));
  return { '(request)': Object.values(refused.messages).flat() };
}

export async function operatorPasswordSignIn(astro: PreSessionAstro, next: string): Promise<SignInOutcome | Response> {
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
    const outcome = await operatorSignIn(app, { email, password }, requestOrigin(astro));
    if (outcome.kind === 'signed-in' || outcome.kind === 'second-factor') {
      await app.rateLimits.signInDidNotFail(ip);
      setOperatorCookie(astro, outcome.token);
      return astro.redirect(outcome.kind === 'signed-in' ? next : `/operator/sign-in/code?next=${encodeURIComponent(next)}`, 303);
    }
    astro.response.status = 401;
    return {
      email,
      messages: {
        '(request)': ['The email or password is not right. Check both and try again. After many failed sign-ins an account is locked for a while.'],
      },
    };
  } catch (error) {
    if (counted) await app.rateLimits.signInDidNotFail(ip);
    return { email, messages: refuse(astro, error) };
  }
}

export async function operatorCodeSignIn(astro: PreSessionAstro, next: string): Promise<SignInOutcome | Response> {
  const app = astro.locals.paylink;
  const pending = operatorToken(astro);
  if (!pending) return astro.redirect('/operator/sign-in', 303);
  const form = await readPreSessionForm(astro);
  if (form instanceof Response) return form;
  const ip = astro.locals.clientIp ?? 'unknown';
  try {
    await app.rateLimits.beginSignIn(ip);
    const outcome = await operatorSecondFactor(app, pending, form.field('code'), requestOrigin(astro));
    if (outcome.kind === 'signed-in') {
      await app.rateLimits.signInDidNotFail(ip);
      setOperatorCookie(astro, outcome.token);
      return astro.redirect(next, 303);
    }
    if (outcome.kind === 'refused') {
      clearOperatorCookie(astro);
      return astro.redirect('/operator/sign-in', 303);
    }
    if (outcome.kind === 'locked') {
      clearOperatorCookie(astro);
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
