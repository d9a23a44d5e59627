import { createHmac, randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { schedules } from '../../../src/db/schema.ts';
import { call, TEST_SECRET, useServedApp } from '../../support/app.ts';
import { scheduleData, signSchedule, testClock } from '../../support/schedules.ts';

/**
 * One signed payload, one schedule: a JWT's base64url segments can be spelled several ways (the
 * last character carries unused low bits), and every spelling of the same signed content is the
 * same request. A payload whose schedule was cancelled is refused, not answered OK.12.00.
 */
const clock = testClock('2026-03-02T00:00:30.000Z');
const served = useServedApp({ now: clock.now });

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The other spellings of a base64url segment: its last character with different unused bits. */
function respellings(segment: string): string[] {
  const unusedBits = (segment.length * 6) % 8;
  const last = ALPHABET.indexOf(segment.at(-1)!);
  const out: string[] = [];
  for (let bits = 1; bits < 1 << unusedBits; bits++) out.push(segment.slice(0, -1) + ALPHABET[last ^ bits]);
  return out;
}
const sign = (input: string, secret = TEST_SECRET) => createHmac('sha256', secret).update(input).digest('base64url');

const post = (payload: string) => call(served.server.url, 'POST', '/api/v1/schedule', { body: { payload } });
const activeCount = async () => (await served.t.app.db.select({ n: count() }).from(schedules).where(eq(schedules.status, 'active')))[0]!.n;

describe('schedule › one signed payload, one schedule', () => {
  it('answers every spelling of the signature with the first schedule, never a second one', async () => {
    const token = await signSchedule(scheduleData(), { iat: clock.now() });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const variants = respellings(signature);
    expect(variants).toHaveLength(3); // 32 bytes in 43 characters: 2 unused bits
    const before = await activeCount();
    const first = await post(token);
    expect(first.json.data.status_code).toBe('OK.12.00');
    for (const variant of variants) {
      const res = await post(`${header}.${payload}.${variant}`);
      expect(res.status, res.text).toBe(200);
      expect(res.json.data).toEqual(first.json.data);
    }
    expect(await activeCount()).toBe(before + 1);
  });

  it('treats a header or payload spelled differently (and signed as spelled) as the same content', async () => {
    let token: string;
    // A payload whose last base64url character has unused bits (its JSON is not a multiple of 3 bytes).
    do token = await signSchedule(scheduleData(), { iat: clock.now(), claims: { jti: randomUUID() } });
    while (respellings(token.split('.')[1]!).length === 0);
    const [header, payload] = token.split('.') as [string, string];
    const first = await post(token);
    expect(first.json.data.status_code).toBe('OK.12.00');
    const before = await activeCount();
    for (const variant of respellings(payload)) {
      const input = `${header}.${variant}`;
      const res = await post(`${input}.${sign(input)}`);
      expect(res.json.data, res.text).toEqual(first.json.data);
    }
    expect(await activeCount()).toBe(before);
  });

  it('checks the signature of a replay: the same content under a signature that is not the secret’s is refused', async () => {
    const token = await signSchedule(scheduleData(), { iat: clock.now() });
    expect((await post(token)).json.data.status_code).toBe('OK.12.00');
    const [header, payload] = token.split('.') as [string, string];
    const res = await post(`${header}.${payload}.${sign(`${header}.${payload}`, 'not-the-secret')}`);
    expect(res.status).toBe(422);
    expect(res.json.data.status_code).toBe('ER.01.10');
  });

  it('refuses a replay of a payload whose schedule was cancelled with 409 ER.12.31, in every spelling', async () => {
    const token = await signSchedule(scheduleData(), { iat: clock.now() });
    const created = await post(token);
    const reference = created.json.data.reference as string;
    const cancelled = await call(served.server.url, 'DELETE', '/api/v1/schedule', { body: { reference } });
    expect(cancelled.json.data.status_code).toBe('OK.12.20');
    const [header, payload, signature] = token.split('.') as [string, string, string];
    for (const spelling of [signature, ...respellings(signature)]) {
      const res = await post(`${header}.${payload}.${spelling}`);
      expect(res.status, res.text).toBe(409);
      expect(res.json).toMatchObject({
        status: 409,
        data: { status_code: 'ER.12.31', status_description: 'Schedule for this signed payload was cancelled' },
        messages: { payload: [expect.stringContaining(reference)] },
      });
      expect(res.json.data.reference).toBeUndefined();
    }
    const [row] = await served.t.app.db.select().from(schedules).where(eq(schedules.id, reference));
    expect(row!.status).toBe('cancelled');
  });
});
