import type { ConsoleAction } from '../../console/entry.ts';
import {
  changeOperatorPassword,
  confirmOperatorTotp,
  disableOperatorTotp,
  regenerateOperatorRecoveryCodes,
  startOperatorTotp,
} from '../../domain/operators/account.ts';
import type { OperatorIdentity } from '../../domain/operators/accounts.ts';

/** What the operator's account page shows after an action. */
export interface OperatorAccountOutcome {
  done?: string;
  enrolment?: { secret: string; uri: string; svg: string };
  totpOn?: boolean;
  /** New recovery codes, shown once. */
  recoveryCodes?: string[];
}

/** The operator's account page's forms, by their `action` field. */
export const operatorAccountActions: Record<string, ConsoleAction<OperatorAccountOutcome, OperatorIdentity>> = {
  password: async ({ app, identity, field, from }) => {
    await changeOperatorPassword(app, identity, { current: field('current'), password: field('password'), confirm: field('confirm') }, from);
    return { done: 'Your password is changed. Your other sessions have been signed out.' };
  },
  'totp-start': async ({ app, identity }) => ({ enrolment: await startOperatorTotp(app, identity) }),
  'totp-confirm': async ({ app, identity, field, from }) => {
    const recoveryCodes = await confirmOperatorTotp(app, identity, { code: field('code') }, from);
    return { done: 'Two-step sign-in is on. From now on, sign-in asks for a code from your app.', totpOn: true, recoveryCodes };
  },
  'recovery-codes': async ({ app, identity, field, from }) => {
    const recoveryCodes = await regenerateOperatorRecoveryCodes(app, identity, { password: field('codes_password') }, from);
    return { done: 'New recovery codes are made. The old ones no longer work.', recoveryCodes };
  },
  'totp-disable': async ({ app, identity, field, from }) => {
    await disableOperatorTotp(app, identity, { password: field('totp_password'), code: field('totp_code') }, from);
    return { done: 'Two-step sign-in is off.', totpOn: false };
  },
};
