import { changeRole, inviteUser, removeUser } from '../../domain/accounts/users.ts';
import type { ConsoleAction } from '../entry.ts';

/** The invitation just made, shown once with its link. */
export interface Invited {
  email: string;
  url: string;
  expiresAt: Date;
  mail: 'queued' | 'file-only';
}

/** Users page: invite someone (owners). */
export const inviteAction: ConsoleAction<Invited> = async ({ app, identity, field, from }) => {
  const invite = await inviteUser(app, identity, { email: field('email'), role: field('role') }, from);
  return { email: invite.email, url: invite.url, expiresAt: invite.expiresAt, mail: invite.mail };
};

/** One user's page: Remove (back to the list), or change the role (the form without an action). */
export function userActions(id: string): { actions: Record<string, ConsoleAction<'role-changed'>>; otherwise: ConsoleAction<'role-changed'> } {
  return {
    actions: {
      remove: async ({ app, identity, from, seeOther }) => {
        await removeUser(app, identity, id, from);
        return seeOther('/console/users');
      },
    },
    otherwise: async ({ app, identity, field, from }) => {
      await changeRole(app, identity, id, { role: field('role') }, from);
      return 'role-changed';
    },
  };
}
