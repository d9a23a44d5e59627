import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { TEST_SECRET } from './app.ts';

/** Seeded sandbox cards (tests/support/app.ts defaultSeed). */
export const ACME_CARD = '6f1c1b0e-8a53-4d0e-9d0e-2f5b2a1c9e11';
export const OTHER_CARD = '0b7e2f4a-1c3d-4e5f-8a9b-0c1d2e3f4a5b';

/** The spec §2.2 schedule data: every minute at second 0, +08:00, PHP 150.00. */
export function scheduleData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    credit_card: { reference: ACME_CARD },
    schedule: { second: '0', minute: '*', hour: '*', day_of_month: '*', month: '*', day_of_week: '*' },
    payment: { description: 'Monthly plan', amount: 150, currency: 'PHP', merchant_reference_id: 'order-1', other_references: ['inv-1'] },
    route: { callback_url: 'http://127.0.0.1:9/callback', notify_user: false },
    time_offset: '+08:00',
    customer_ip_address: '203.0.113.7',
    ...overrides,
  };
}

/**
 * Signs `{ data }` with HS256, as an integrator would (any HS256 library does the same). A fresh
 * `jti` makes every call a new JWT: the same JWT twice replays the first schedule.
 */
export function signSchedule(data: Record<string, unknown>, opts: { secret?: string; iat?: Date; claims?: Record<string, unknown> } = {}): Promise<string> {
  const jwt = new SignJWT({ data, jti: randomUUID(), ...opts.claims }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' });
  if (opts.iat) jwt.setIssuedAt(Math.floor(opts.iat.getTime() / 1000));
  return jwt.sign(new TextEncoder().encode(opts.secret ?? TEST_SECRET));
}

/** A clock tests move by hand. */
export function testClock(start: string | Date) {
  let at = new Date(start).getTime();
  return {
    now: () => new Date(at),
    set: (to: string | Date) => void (at = new Date(to).getTime()),
    advance: (seconds: number) => void (at += seconds * 1000),
  };
}
