import type { PaylinkApp } from '../../app.ts';
import { consoleAction } from '../../domain/accounts/acting.ts';
import { nothingToReset, resetSecondFactor } from '../../domain/accounts/second-factor.ts';
import type { ConsoleIdentity } from '../../domain/accounts/sessions.ts';
import { changeRole, inviteUser, listUsers, openSessionCount, removeUser } from '../../domain/accounts/users.ts';
import { invalidFields, notFound } from '../../domain/errors.ts';
import { setStaffRefundCap } from '../../domain/refunds/caps.ts';
import { type Confirmation, isConfirmed } from '../confirm.ts';
import type { ConsoleAction } from '../entry.ts';

/** The invitation just made, shown once with its link. */
export interface Invited {
  email: string;
  url: string;
  expiresAt: Date;
  mail: 'queued' | 'file-only';
}

/** What the Users page shows after a form: the invitation made, or the staff refund limits saved. */
export type UsersOutcome = { invited: Invited } | { capsSaved: { currency: string; removed: boolean } };

/** Users page: invite someone (the form without an action), or set the staff refund limits of a currency (owners). */
export const usersActions: { actions: Record<string, ConsoleAction<UsersOutcome>>; otherwise: ConsoleAction<UsersOutcome> } = {
  actions: {
    'refund-caps': async ({ app, identity, field, from }) => {
      const { actor } = await consoleAction(app, identity, from);
      const saved = await setStaffRefundCap(
        app,
        { ...actor, integratorId: identity.user.integratorId },
        {
          currency: field('currency'),
          per_refund: field('per_refund'),
          per_day: field('per_day'),
        },
      );
      return { capsSaved: saved };
    },
  },
  otherwise: async ({ app, identity, field, from }) => {
    const invite = await inviteUser(app, identity, { email: field('email'), role: field('role') }, from);
    return { invited: { email: invite.email, url: invite.url, expiresAt: invite.expiresAt, mail: invite.mail } };
  },
};

/** What one user's page shows after a form: the role changed, their second factor reset, or a confirm step (Remove, Reset). */
export type UserOutcome = 'role-changed' | 'second-factor-reset' | { confirm: Confirmation };

/** One user's page: Remove (asked first, then back to the list), reset their second factor (asked first), or change the role (the form without an action). */
export function userActions(id: string): { actions: Record<string, ConsoleAction<UserOutcome>>; otherwise: ConsoleAction<UserOutcome> } {
  return {
    actions: {
      remove: async ({ app, identity, field, from, seeOther }) => {
        if (!isConfirmed(field)) return { confirm: await removeConfirmation(app, identity, id) };
        await removeUser(app, identity, id, from);
        return seeOther('/console/users');
      },
      'reset-second-factor': async ({ app, identity, field, from }) => {
        if (!isConfirmed(field)) return { confirm: await resetConfirmation(app, identity, id) };
        await resetSecondFactor(app, identity, id, from);
        return 'second-factor-reset';
      },
    },
    otherwise: async ({ app, identity, field, from }) => {
      await changeRole(app, identity, id, { role: field('role') }, from);
      return 'role-changed';
    },
  };
}

async function removeConfirmation(app: PaylinkApp, identity: ConsoleIdentity, id: string): Promise<Confirmation> {
  const user = (await listUsers(app, identity)).find((u) => u.id === id);
  if (!user) throw notFound('(request)', 'This user');
  const sessions = await openSessionCount(app, identity, id);
  return {
    title: `Remove ${user.email}?`,
    consequences: [
      user.invited ? 'Their invitation stops working: the link they were sent no longer lets them choose a password.' : `${user.email} can no longer sign in.`,
      sessions === 0
        ? 'They are not signed in anywhere now.'
        : `Their ${sessions === 1 ? 'signed-in session ends' : `${sessions} signed-in sessions end`} at once.`,
      'What they did stays in the activity log.',
      'This cannot be undone: to let them back in, invite them again.',
    ],
    action: 'remove',
    fields: {},
    confirmLabel: `Remove ${user.email}`,
    back: { label: 'Keep them', href: `/console/users/${id}` },
  };
}

async function resetConfirmation(app: PaylinkApp, identity: ConsoleIdentity, id: string): Promise<Confirmation> {
  const user = (await listUsers(app, identity)).find((u) => u.id === id);
  if (!user) throw notFound('(request)', 'This user');
  if (user.id === identity.user.id)
    throw invalidFields({ user: ['you cannot reset your own two-step sign-in: sign in with a recovery code, or ask another owner'] });
  if (!user.totpEnabledAt) throw nothingToReset();
  const sessions = await openSessionCount(app, identity, id);
  return {
    title: `Reset two-step sign-in of ${user.email}?`,
    consequences: [
      'The codes of their authenticator app and all their recovery codes stop working.',
      sessions === 0
        ? 'They are not signed in anywhere now.'
        : `Their ${sessions === 1 ? 'signed-in session ends' : `${sessions} signed-in sessions end`} at once.`,
      `They are e-mailed that ${identity.user.email} reset it, and the activity log records it.`,
      'Until two-step sign-in is turned on again, their password alone signs them in. This cannot be undone: their old codes never work again.',
    ],
    action: 'reset-second-factor',
    fields: {},
    confirmLabel: 'Reset two-step sign-in',
    back: { label: 'Keep it', href: `/console/users/${id}` },
  };
}
