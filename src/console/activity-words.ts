import { z } from 'zod';
import type { AuditAction } from '../domain/accounts/audit.ts';
import { ROTATION_OVERLAPS } from '../domain/integrators/credentials.ts';
import { formatMoney, parseAmount } from '../domain/money.ts';

/**
 * The activity log in words: each audit action as a sentence ("Refunded ₱500.00 of txn_…"), its
 * target as a link to the payment, link, schedule or user when there is one, and the groups the
 * page filters by. Pure; the stored target is free text written by the domain (audit.ts callers).
 */

export const activityGroups = {
  'sign-in': 'Sign-ins and sign-outs',
  refunds: 'Refunds and callbacks',
  links: 'Payment links and promotion codes',
  schedules: 'Schedules',
  users: 'Users and two-step sign-in',
  developers: 'Credentials and settings',
} as const;
export type ActivityGroup = keyof typeof activityGroups;

interface ActionWords {
  group: ActivityGroup;
  /** The sentence without a target, or with it (`target` as stored, never empty here). */
  say(target: string | null): string;
}

const withTarget =
  (verb: string, fallback = verb) =>
  (target: string | null) =>
    target ? `${verb} ${target}` : fallback;
const plain = (sentence: string) => () => sentence;
const recoveryCodeWords = (target: string | null) => {
  const left = /: (\d+) left$/.exec(target ?? '')?.[1];
  return left === undefined ? 'Signed in with a recovery code' : `Signed in with a recovery code (${left} left)`;
};

const words: Record<AuditAction, ActionWords> = {
  'sign_in.succeeded': { group: 'sign-in', say: plain('Signed in') },
  'sign_in.failed': {
    group: 'sign-in',
    say: (t) => (t === 'unknown e-mail' ? 'Failed sign-in with an e-mail that has no account' : 'Failed sign-in: wrong password'),
  },
  'sign_in.refused_locked': { group: 'sign-in', say: plain('Sign-in refused: the account is locked') },
  'sign_in.second_factor_failed': { group: 'sign-in', say: plain('Failed sign-in: wrong two-step code') },
  'account.locked': { group: 'sign-in', say: plain('Account locked after too many failed sign-ins') },
  'account.check_failed': {
    group: 'sign-in',
    say: (t) => (t?.endsWith(': code') ? 'Wrong two-step code given to change the account' : 'Wrong password given to change the account'),
  },
  sign_out: { group: 'sign-in', say: plain('Signed out') },
  'sessions.ended_others': { group: 'sign-in', say: (t) => (t ? `Signed out other sessions (${t})` : 'Signed out other sessions') },
  'password.changed': { group: 'users', say: plain('Changed their password') },
  'user.invited': { group: 'users', say: (t) => `Invited ${userAndRole(t)}` },
  'user.invite_elsewhere': { group: 'users', say: (t) => `Invited ${userAndRole(t)} (the address belongs to another account: nothing was made)` },
  'user.invite_accepted': { group: 'users', say: plain('Accepted the invitation and chose a password') },
  'user.role_changed': { group: 'users', say: (t) => roleChange(t) },
  'user.removed': { group: 'users', say: (t) => `Removed ${userAndRole(t)}` },
  'totp.enabled': { group: 'users', say: plain('Turned on two-step sign-in') },
  'totp.disabled': { group: 'users', say: plain('Turned off two-step sign-in') },
  'sign_in.recovery_code_used': { group: 'sign-in', say: (t) => recoveryCodeWords(t) },
  'recovery_codes.regenerated': { group: 'users', say: plain('Made new recovery codes (the old ones stopped working)') },
  'user.second_factor_reset': { group: 'users', say: withTarget('Reset the two-step sign-in of', 'Reset a user’s two-step sign-in') },
  'link.created': { group: 'links', say: withTarget('Created the payment link', 'Created a payment link') },
  'link.updated': { group: 'links', say: withTarget('Changed the payment link', 'Changed a payment link') },
  'promotion.created': { group: 'links', say: withTarget('Created the promotion code', 'Created a promotion code') },
  'promotion.updated': { group: 'links', say: withTarget('Changed the promotion code', 'Changed a promotion code') },
  'promotion.deactivated': { group: 'links', say: withTarget('Deactivated the promotion code', 'Deactivated a promotion code') },
  'refund.requested': { group: 'refunds', say: (t) => refundWords(t) },
  'event.resent': { group: 'refunds', say: (t) => resentWords(t) },
  'receipt.resent': { group: 'refunds', say: withTarget('E-mailed the receipt again for', 'E-mailed a receipt again') },
  'schedule.cancelled': { group: 'schedules', say: withTarget('Cancelled the schedule', 'Cancelled a schedule') },
  'schedule.resumed': { group: 'schedules', say: withTarget('Resumed the schedule', 'Resumed a schedule') },
  'card_registration.deleted': { group: 'schedules', say: withTarget('Deleted the card registration', 'Deleted a card registration') },
  'api_token.rotated': { group: 'developers', say: (t) => `Rotated the API token${overlapWords(t)}` },
  'link_key.rotated': { group: 'developers', say: (t) => `Rotated the link key${overlapWords(t)}` },
  'jwt_secret.rotated': { group: 'developers', say: (t) => `Rotated the JWT secret${overlapWords(t)}` },
  'webhook_secret.rotated': { group: 'developers', say: plain('Rotated the webhook secret') },
  'callback_url.changed': {
    group: 'developers',
    say: (t) => (!t || t === '(none)' ? 'Cleared the default callback URL' : `Set the default callback URL to ${t}`),
  },
  'support_email.changed': { group: 'developers', say: (t) => (!t || t === '(none)' ? 'Cleared the support e-mail' : `Set the support e-mail to ${t}`) },
  'payment_methods.changed': {
    group: 'developers',
    say: (t) => (!t || t === '(every method)' ? 'Offered every payment method by default' : `Set the default payment methods: ${t}`),
  },
  'acquirer.changed': {
    group: 'developers',
    say: (t) => (t === 'sandbox' ? 'Switched payments to the sandbox (test mode)' : `Switched payments to ${providerOf(t)}`),
  },
  'qr_expiry.changed': {
    group: 'developers',
    say: (t) => (!t || t === '(default)' ? 'Set QR Ph codes to expire after 30 minutes (the default)' : `Set QR Ph codes to expire after ${t} minutes`),
  },
  'test_event.sent': { group: 'developers', say: withTarget('Sent the test event', 'Sent a test event') },
  'integrator.suspended': { group: 'developers', say: (t) => (t ? `Suspended the account: ${t}` : 'Suspended the account') },
  'integrator.reactivated': { group: 'developers', say: plain('Reactivated the account') },
  'payment.read_by_support': { group: 'refunds', say: (t) => (t ? `Support looked at payment ${t}` : 'Support looked at a payment') },
  'refund_caps.changed': { group: 'refunds', say: (t) => (t ? `Changed the staff refund limits: ${t}` : 'Changed the staff refund limits') },
};

const ROLE = /^(.+) \((owner|staff)\)$/;
/** `a@b.c (staff)` → "a@b.c as staff". */
function userAndRole(target: string | null): string {
  const match = target ? ROLE.exec(target) : null;
  return match ? `${match[1]} as ${match[2]}` : (target ?? 'someone');
}

/** `a@b.c: staff → owner` → "Made a@b.c an owner (was staff)". */
function roleChange(target: string | null): string {
  const match = target ? /^(.+): (owner|staff) → (owner|staff)$/.exec(target) : null;
  if (!match) return target ? `Changed the role of ${target}` : 'Changed a role';
  return `Made ${match[1]} ${match[3] === 'owner' ? 'an owner' : 'staff'} (was ${match[2]})`;
}

/** `overlap 24h` → ", the old one working 24 hours more"; `overlap none` → ", the old one stopped at once". */
function overlapWords(target: string | null): string {
  const overlap = target ? /^overlap (\S+)$/.exec(target)?.[1] : undefined;
  if (!overlap) return '';
  if (overlap === 'none') return ', the old one stopped at once';
  const label = (ROTATION_OVERLAPS as Record<string, { label: string } | undefined>)[overlap]?.label ?? overlap;
  return `, the old one working ${label} more`;
}

/** `paymongo (pk_test_…)` → "PayMongo (public key pk_test_…)". */
function providerOf(target: string | null): string {
  const match = target ? /^(\w+)(?: \((.*)\))?$/.exec(target) : null;
  const names: Record<string, string> = { paymongo: 'PayMongo', stripe: 'Stripe', sandbox: 'the sandbox' };
  if (!match) return target ?? 'another acquirer';
  const name = names[match[1]!] ?? match[1]!;
  return match[2] ? `${name} (public key ${match[2]})` : name;
}

const REFUND = /^(rfd_\S+) of (txn_\S+) \((full|partial), ([0-9.]+) ([A-Z]{3})\)$/;

/** `rfd_… of txn_… (partial, 500.00 PHP)` → "Refunded ₱500.00 of txn_… (partial refund)". */
function refundWords(target: string | null): string {
  const match = target ? REFUND.exec(target) : null;
  if (!match) return target ? `Refunded ${target}` : 'Refunded a payment';
  const [, , payment, kind, amount = '', currency = ''] = match;
  let money = `${amount} ${currency}`;
  try {
    money = formatMoney(parseAmount(amount, currency).minor, currency);
  } catch {
    // An amount this build cannot read (a currency since retired): shown as stored.
  }
  return `Refunded ${money} of ${payment} (${kind} refund)`;
}

/** `evt_… (payment.succeeded)` → "Resent the callback “payment succeeded” (evt_…)". */
function resentWords(target: string | null): string {
  const match = target ? /^(\S+) \(([\w.]+)\)$/.exec(target) : null;
  if (!match) return target ? `Resent the callback ${target}` : 'Resent a callback';
  return `Resent the callback “${match[2]!.replace('.', ' ').replaceAll('_', ' ')}” (${match[1]})`;
}

const CARD_REFERENCE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/;

export interface ActivityLine {
  text: string;
  group: ActivityGroup | undefined;
  /** Where the target is in the console, when it has a page. */
  link?: { href: string; label: string };
}

/**
 * One entry in words. `userIdByEmail` finds the user page of an e-mail named in the target
 * (a removed user has none). An action this build does not know is shown as stored, honestly.
 */
export function activityInWords(entry: { action: string; target: string | null }, userIdByEmail: (email: string) => string | undefined): ActivityLine {
  const known = (words as Record<string, ActionWords | undefined>)[entry.action];
  if (!known) return { text: entry.target ? `${entry.action.replaceAll('_', ' ')}: ${entry.target}` : entry.action.replaceAll('_', ' '), group: undefined };
  const line: ActivityLine = { text: known.say(entry.target), group: known.group };
  const target = entry.target ?? '';
  const payment = /\b(txn_[A-Za-z0-9_-]+)/.exec(target)?.[1];
  const card = CARD_REFERENCE.exec(target)?.[1];
  if ((entry.action === 'refund.requested' || entry.action === 'payment.read_by_support') && payment)
    line.link = { href: `/console/payments/${payment}`, label: 'View payment' };
  else if (entry.action.startsWith('schedule.') && /^sch_[A-Za-z0-9_-]+$/.test(target))
    line.link = { href: `/console/schedules/${target}`, label: 'View schedule' };
  else if (entry.action === 'card_registration.deleted' && card) line.link = { href: `/console/card-registrations/${card}`, label: 'View card registration' };
  else if (entry.action.startsWith('link.') && /^[a-z0-9-]+$/.test(target)) line.link = { href: `/console/links/${target}`, label: 'View link' };
  else if (entry.action.startsWith('user.')) {
    const email = /^([^\s:()]+@[^\s:()]+)/.exec(target)?.[1];
    const id = email ? userIdByEmail(email.toLowerCase()) : undefined;
    if (id) line.link = { href: `/console/users/${id}`, label: 'View user' };
  }
  return line;
}

/** The actions of a group, for the filter. */
export const actionsOf = (group: ActivityGroup) => (Object.keys(words) as AuditAction[]).filter((a) => words[a].group === group);

const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

/** The activity page's address: `?user=&action=&before=`; each may be left out or empty. */
export const activityQuerySchema = z
  .object({
    user: optional(z.string().trim().max(320, 'must be an e-mail address of at most 320 characters')),
    action: optional(
      z.enum(Object.keys(activityGroups) as [ActivityGroup, ...ActivityGroup[]], { error: `must be one of ${Object.keys(activityGroups).join(', ')}` }),
    ),
    before: optional(
      z
        .string()
        .regex(/^\d{1,15}$/, 'must be the number of an entry, from the Older link')
        .transform(Number),
    ),
  })
  .strip();
export type ActivityQuery = z.infer<typeof activityQuerySchema>;

/** The address of a page of activity with the same filters. */
export function activityHref(query: ActivityQuery, before?: number): string {
  const params = new URLSearchParams();
  if (query.user) params.set('user', query.user);
  if (query.action) params.set('action', query.action);
  if (before !== undefined) params.set('before', String(before));
  const text = params.toString();
  return text ? `/console/activity?${text}` : '/console/activity';
}
