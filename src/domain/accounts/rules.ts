import type { ConsoleRole } from '../../db/schema.ts';

/**
 * The account rules as plain functions with their limits named, so they are tested without a
 * database: lockout (PCI DSS 8.3.4), session lifetimes (8.2.8), what each role may do.
 */
export interface AccountSettings {
  idleMinutes: number;
  sessionHours: number;
  lockoutAttempts: number;
  lockoutMinutes: number;
  inviteHours: number;
}

/** Between a correct password and the TOTP code: this long to type the code. */
export const SECOND_FACTOR_MINUTES = 5;
/** A session's last-seen time is written at most this often (the idle timeout is checked against it). */
export const SESSION_TOUCH_SECONDS = 30;
/** Activity entries per page. */
export const AUDIT_PAGE_SIZE = 50;

const minutes = (n: number) => n * 60_000;

export const isLocked = (user: { lockedUntil: Date | null }, now: Date) => user.lockedUntil !== null && user.lockedUntil > now;

/**
 * After a failed password: the count of failures in a row (a lock that has run out starts the
 * count again) and the lock, set when the count reaches the threshold.
 */
export function afterFailedSignIn(
  user: { failedSignIns: number; lockedUntil: Date | null },
  settings: Pick<AccountSettings, 'lockoutAttempts' | 'lockoutMinutes'>,
  now: Date,
): { failedSignIns: number; lockedUntil: Date | null; lockedNow: boolean } {
  const lapsed = user.lockedUntil !== null && user.lockedUntil <= now;
  const failedSignIns = (lapsed ? 0 : user.failedSignIns) + 1;
  if (failedSignIns >= settings.lockoutAttempts) {
    return { failedSignIns, lockedUntil: new Date(now.getTime() + minutes(settings.lockoutMinutes)), lockedNow: true };
  }
  return { failedSignIns, lockedUntil: lapsed ? null : user.lockedUntil, lockedNow: false };
}

export type SessionState = 'active' | 'idle' | 'expired';

/** Whether a session is still usable: idle for less than the idle timeout and within its absolute lifetime. */
export function sessionState(session: { lastSeenAt: Date; expiresAt: Date }, settings: Pick<AccountSettings, 'idleMinutes'>, now: Date): SessionState {
  if (session.expiresAt <= now) return 'expired';
  if (session.lastSeenAt.getTime() + minutes(settings.idleMinutes) <= now.getTime()) return 'idle';
  return 'active';
}

export const sessionExpiry = (settings: Pick<AccountSettings, 'sessionHours'>, now: Date) => new Date(now.getTime() + settings.sessionHours * 3_600_000);
export const secondFactorExpiry = (now: Date) => new Date(now.getTime() + minutes(SECOND_FACTOR_MINUTES));

/** What a role may do: owners everything; staff payments and refunds, never users, credentials or the activity log. */
export const canManageAccount = (role: ConsoleRole) => role === 'owner';

/**
 * Payment links: every role sees them and copies their address and QR code (staff hand them to
 * customers); only owners create or change them.
 */
export const canEditLinks = (role: ConsoleRole) => role === 'owner';

/**
 * Promotion codes lower what customers pay, as a link's amount sets it: every role sees them (to
 * tell a customer which code applies); only owners create, change or deactivate them.
 */
export const canManagePromotions = (role: ConsoleRole) => role === 'owner';

export const normaliseEmail = (email: string) => email.trim().toLowerCase();
