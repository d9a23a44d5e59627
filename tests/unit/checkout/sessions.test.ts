import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PaylinkApp } from '../../../src/app.ts';
import { createMac } from '../../../src/crypto.ts';
import type { CheckoutSession } from '../../../src/db/schema.ts';
import { issueStaticTicket, openStaticTicket, sessionState } from '../../../src/domain/checkout/sessions.ts';

/** The static link ticket (`<token>.<issued at>.<mac>`) and the session states, without a database. */
const mac = createMac(randomBytes(32), 'static-session-ticket');
let clock = new Date('2026-05-01T12:00:00.000Z');
const app = { staticSessionMac: mac, now: () => clock, config: { checkoutTtlSeconds: 900 } } as unknown as PaylinkApp;
const at = (seconds: number) => new Date(Date.parse('2026-05-01T12:00:00.000Z') + seconds * 1000);

describe('static ticket', () => {
  it('is the token, the issue time in Unix seconds and the MAC over version, link, token and time', () => {
    clock = at(0.75);
    const ticket = issueStaticTicket(app, 'lnk_1');
    const [token, issuedAt, signature] = ticket.split('.');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(issuedAt).toBe(String(Date.parse('2026-05-01T12:00:00.000Z') / 1000));
    expect(signature).toBe(mac.sign(`static-session/v1|lnk_1|${token}|${issuedAt}`));
    expect(openStaticTicket(app, 'lnk_1', ticket)).toEqual({ ok: true, token, stale: false });
  });

  it('refuses a malformed ticket, also a valid one with anything before or after it', () => {
    clock = at(0);
    const ticket = issueStaticTicket(app, 'lnk_1');
    const malformed = { ok: false, reason: 'malformed' };
    expect(openStaticTicket(app, 'lnk_1', 'not-a-ticket')).toEqual(malformed);
    expect(openStaticTicket(app, 'lnk_1', `A${ticket}`)).toEqual(malformed);
    expect(openStaticTicket(app, 'lnk_1', `${ticket}A`)).toEqual(malformed);
    expect(openStaticTicket(app, 'lnk_1', `${ticket}\n`)).toEqual(malformed);
  });

  it('refuses a ticket issued for another link, or with another MAC, as not issued', () => {
    clock = at(0);
    const ticket = issueStaticTicket(app, 'lnk_1');
    expect(openStaticTicket(app, 'lnk_2', ticket)).toEqual({ ok: false, reason: 'not_issued' });
    const other = createMac(randomBytes(32), 'static-session-ticket');
    const [token, issuedAt] = ticket.split('.');
    const forged = `${token}.${issuedAt}.${other.sign(`static-session/v1|lnk_1|${token}|${issuedAt}`)}`;
    expect(openStaticTicket(app, 'lnk_1', forged)).toEqual({ ok: false, reason: 'not_issued' });
  });

  it('accepts a ticket up to 300 s ahead of this clock (another process), not more', () => {
    clock = at(300);
    const ahead = issueStaticTicket(app, 'lnk_1');
    clock = at(0);
    expect(openStaticTicket(app, 'lnk_1', ahead)).toMatchObject({ ok: true, stale: false });
    clock = at(301);
    const tooFar = issueStaticTicket(app, 'lnk_1');
    clock = at(0);
    expect(openStaticTicket(app, 'lnk_1', tooFar)).toEqual({ ok: false, reason: 'not_issued' });
  });

  it('is stale once older than the checkout TTL, not at exactly the TTL', () => {
    clock = at(0);
    const ticket = issueStaticTicket(app, 'lnk_1');
    clock = at(900);
    expect(openStaticTicket(app, 'lnk_1', ticket)).toMatchObject({ ok: true, stale: false });
    clock = at(901);
    expect(openStaticTicket(app, 'lnk_1', ticket)).toMatchObject({ ok: true, stale: true });
  });
});

describe('session state', () => {
  const session = (status: CheckoutSession['status'], expiresAt: Date) => ({ status, expiresAt }) as CheckoutSession;
  const now = at(0);

  it('is paid or locked whatever the time, expired from its expiry on, else open', () => {
    expect(sessionState(session('paid', at(-10)), now)).toBe('paid');
    expect(sessionState(session('locked', at(10)), now)).toBe('locked');
    expect(sessionState(session('locked', at(-10)), now)).toBe('locked');
    expect(sessionState(session('open', at(0)), now)).toBe('expired');
    expect(sessionState(session('open', at(0.001)), now)).toBe('open');
  });
});
