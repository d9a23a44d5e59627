import { eq } from 'drizzle-orm';
import { newId, newUrlToken, sha256Hex } from '../../crypto.ts';
import type { DbOrTx } from '../../db/client.ts';
import { consoleUsers } from '../../db/schema.ts';
import { EMAIL_MESSAGE, isEmailAddress } from '../../schemas/email-rules.ts';
import type { DomainContext } from '../context.ts';
import { invalidFields } from '../errors.ts';
import { type Actor, recordAudit } from './audit.ts';
import { queueInviteMail } from './mail.ts';
import { normaliseEmail } from './rules.ts';
import type { RequestOrigin } from './sessions.ts';
import { inviteUrl } from './users.ts';

/**
 * An integrator's first owner, invited by support (the operator console) when it makes the
 * integrator: the same one-time link and e-mail as an owner's invitation, in the caller's
 * transaction. The address must not have a console account yet (sign-in is by e-mail alone).
 */
export async function inviteFirstOwner(
  app: DomainContext,
  tx: DbOrTx,
  input: { integratorId: string; integratorName: string; email: string; inviterEmail: string; from: RequestOrigin },
) {
  const email = normaliseEmail(input.email);
  if (!isEmailAddress(email)) throw invalidFields({ owner_email: [EMAIL_MESSAGE] });
  const [taken] = await tx.select({ id: consoleUsers.id }).from(consoleUsers).where(eq(consoleUsers.email, email));
  if (taken) throw invalidFields({ owner_email: ['already signs in to a console (one account per address): give another address'] });
  const token = newUrlToken();
  const now = app.now();
  const expiresAt = new Date(now.getTime() + app.config.console.inviteHours * 3_600_000);
  const userId = newId('usr');
  await tx.insert(consoleUsers).values({
    id: userId,
    integratorId: input.integratorId,
    email,
    role: 'owner',
    inviteTokenHash: sha256Hex(token),
    inviteExpiresAt: expiresAt,
    createdAt: now,
  });
  const actor: Actor = { integratorId: input.integratorId, userId: null, email: input.inviterEmail, ...input.from };
  await recordAudit(tx, actor, 'user.invited', `${email} (owner)`, now);
  await queueInviteMail(app, tx, {
    integratorId: input.integratorId,
    userId,
    to: email,
    now,
    mail: {
      integratorName: input.integratorName,
      inviterEmail: input.inviterEmail,
      role: 'owner',
      url: inviteUrl(app, token),
      expiresAt: expiresAt.toISOString(),
    },
  });
  return { email, url: inviteUrl(app, token), expiresAt, mail: app.config.smtpUrl ? ('queued' as const) : ('file-only' as const) };
}
