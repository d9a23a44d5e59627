import { regenerateRecoveryCodes } from '../../domain/accounts/second-factor.ts';
import { endOtherSessions } from '../../domain/accounts/sessions.ts';
import { changePassword, confirmTotpEnrolment, disableTotp, startTotpEnrolment } from '../../domain/accounts/users.ts';
import type { ConsoleAction } from '../entry.ts';

/** What the account page shows after an action: a sentence, a new enrolment, two-step sign-in's new state, new recovery codes (once). */
export interface AccountOutcome {
  done?: string;
  enrolment?: { secret: string; uri: string; svg: string };
  totpOn?: boolean;
  recoveryCodes?: string[];
}

/** The account page's forms (anyone signed in, for their own account), by their `action` field. */
export const accountActions: Record<string, ConsoleAction<AccountOutcome>> = {
  password: async ({ app, identity, field, from }) => {
    await changePassword(app, identity, { current: field('current'), password: field('password'), confirm: field('confirm') }, from);
    return { done: 'Your password is changed. Your other sessions have been signed out.' };
  },
  'totp-start': async ({ app, identity }) => ({ enrolment: await startTotpEnrolment(app, identity) }),
  'totp-confirm': async ({ app, identity, field, from }) => {
    const recoveryCodes = await confirmTotpEnrolment(app, identity, { code: field('code') }, from);
    return { done: 'Two-step sign-in is on. From now on, sign-in asks for a code from your app.', totpOn: true, recoveryCodes };
  },
  'recovery-codes': async ({ app, identity, field, from }) => {
    const recoveryCodes = await regenerateRecoveryCodes(app, identity, { password: field('codes_password') }, from);
    return { done: 'New recovery codes are made. The old ones no longer work.', recoveryCodes };
  },
  'end-others': async ({ app, identity, from }) => {
    const ended = await endOtherSessions(app, identity, from);
    return { done: ended === 0 ? 'You had no other sessions.' : `${ended} other session${ended === 1 ? '' : 's'} signed out.` };
  },
  'totp-disable': async ({ app, identity, field, from }) => {
    await disableTotp(app, identity, { password: field('totp_password'), code: field('totp_code') }, from);
    return { done: 'Two-step sign-in is off.', totpOn: false };
  },
};
