import { createHash, createHmac, generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.ts';
import { JWT_MAX_LENGTH, signedContentHash, verifySchedulePayload, verifySchedulePayloadSignature } from '../../../src/domain/schedules/jwt.ts';

const SECRET = 'test_secret_acme_0123456789abcdefghijklmnop';
const now = new Date('2026-01-10T12:00:00.000Z');
const nowSec = Math.floor(now.getTime() / 1000);
const key = new TextEncoder().encode(SECRET);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

const sign = (claims: Record<string, unknown>, secret = key) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret);

/** A hand-made token: header and claims as given, signature by HMAC-SHA256 unless told. */
function handMade(header: Record<string, unknown>, claims: Record<string, unknown>, signature?: string) {
  const input = `${b64(header)}.${b64(claims)}`;
  return `${input}.${signature ?? createHmac('sha256', SECRET).update(input).digest('base64url')}`;
}

async function rejection(token: string): Promise<string> {
  try {
    await verifySchedulePayload(token, SECRET, now);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('ER.01.10');
    return ((error as DomainError).messages as Record<string, string[]>).payload![0]!;
  }
  throw new Error('the JWT was accepted');
}

describe('schedule jwt', () => {
  it('accepts HS256 signed with the integrator secret and returns the claims', async () => {
    const claims = await verifySchedulePayload(await sign({ data: { a: 1 }, iat: nowSec }), SECRET, now);
    expect(claims.data).toEqual({ a: 1 });
  });

  it('rejects a JWT with alg none', async () => {
    expect(await rejection(`${b64({ alg: 'none', typ: 'JWT' })}.${b64({ data: {} })}.`)).toMatch(/HS256.*"none"/);
  });

  it('rejects alg None spelled differently and a missing alg', async () => {
    expect(await rejection(handMade({ alg: 'None' }, { data: {} }))).toMatch(/HS256/);
    expect(await rejection(handMade({ typ: 'JWT' }, { data: {} }))).toMatch(/HS256.*missing/);
  });

  it('rejects RS256 even when signed by a real key', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const token = await new SignJWT({ data: {} }).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
    expect(await rejection(token)).toMatch(/HS256.*"RS256"/);
  });

  it('rejects HS384 and HS512 signed with the right secret', async () => {
    for (const alg of ['HS384', 'HS512']) {
      const token = await new SignJWT({ data: {} }).setProtectedHeader({ alg }).sign(key);
      expect(await rejection(token)).toMatch(new RegExp(`"${alg}"`));
    }
  });

  it('rejects an RS256/HS256 key-confusion token (HS256 header, public key as the secret)', async () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const token = await sign({ data: {} }, new TextEncoder().encode(pem));
    expect(await rejection(token)).toMatch(/signature does not match/);
  });

  it('rejects a signature made with another secret', async () => {
    expect(await rejection(await sign({ data: {} }, new TextEncoder().encode('another_secret_0123456789abcdef')))).toMatch(/signature does not match/);
  });

  it('rejects a tampered payload', async () => {
    const [h, , s] = (await sign({ data: { amount: 1 } })).split('.');
    expect(await rejection(`${h}.${b64({ data: { amount: 1000 } })}.${s}`)).toMatch(/signature does not match/);
  });

  it('rejects a stripped signature', async () => {
    const [h, p] = (await sign({ data: {} })).split('.');
    expect(await rejection(`${h}.${p}.`)).toMatch(/signature/);
  });

  it('rejects an expired JWT beyond the leeway and accepts one within it', async () => {
    expect(await rejection(await sign({ data: {}, exp: nowSec - 120 }))).toMatch(/expired/);
    await expect(verifySchedulePayload(await sign({ data: { within: 'leeway' }, exp: nowSec - 30 }), SECRET, now)).resolves.toEqual({
      data: { within: 'leeway' },
      exp: nowSec - 30,
    });
  });

  it('rejects a JWT that is not valid yet (nbf)', async () => {
    expect(await rejection(await sign({ data: {}, nbf: nowSec + 600 }))).toMatch(/not valid yet/);
  });

  it('rejects a JWT issued in the future (iat)', async () => {
    expect(await rejection(await sign({ data: {}, iat: nowSec + 600 }))).toMatch(/issued in the future/);
  });

  it('rejects a non-numeric exp', async () => {
    expect(await rejection(handMade({ alg: 'HS256' }, { data: {}, exp: 'tomorrow' }))).toMatch(/exp/);
  });

  it('rejects what is not a compact JWT, and a header that is not JSON', async () => {
    expect(await rejection('not-a-jwt')).toMatch(/compact JWT/);
    expect(await rejection('a.b.c.d')).toMatch(/compact JWT/);
    expect(await rejection(`${Buffer.from('{nope').toString('base64url')}.${b64({})}.sig`)).toMatch(/HS256/);
  });

  it('rejects an unknown critical header', async () => {
    const token = handMade({ alg: 'HS256', crit: ['x-unknown'], 'x-unknown': 1 }, { data: {} });
    expect(await rejection(token)).toBe('could not be read as a signed JWT');
  });

  it('rejects a huge token before parsing it', async () => {
    expect(await rejection(`${'a'.repeat(20_000)}.b.c`)).toMatch(/longer than/);
  });
});

describe('schedule JWT › what it says, and its signature alone', () => {
  it('hashes the decoded header and payload: two spellings of one signed content hash alike, other content not', async () => {
    const token = await sign({ data: { a: 1 }, iat: nowSec });
    const [h, p, s] = token.split('.') as [string, string, string];
    const expected = createHash('sha256')
      .update(`paylink-schedule-jws:${Buffer.from(h, 'base64url').length}:`)
      .update(Buffer.from(h, 'base64url'))
      .update(Buffer.from(p, 'base64url'))
      .digest('hex');
    expect(signedContentHash(token)).toBe(expected);
    expect(signedContentHash(`${h}.${p}.${s.slice(0, -1)}A`)).toBe(expected); // the signature is not part of it
    expect(signedContentHash(await sign({ data: { a: 2 }, iat: nowSec }))).not.toBe(expected);
    expect(() => signedContentHash('not-a-jwt')).toThrow(DomainError);
  });

  it('checks the signature with HS256 and the secret, and nothing else', async () => {
    const expired = await sign({ data: {}, exp: nowSec - 86_400 });
    await expect(verifySchedulePayloadSignature(expired, SECRET)).resolves.toBeUndefined();
    const other = await sign({ data: {} }, new TextEncoder().encode('another_secret_0123456789abcdefghijkl'));
    const error = await verifySchedulePayloadSignature(other, SECRET).catch((e) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe('ER.01.10');
    expect(error.messages).toEqual({ payload: ['signature does not match: sign it with HS256 and the secret issued to you'] });
    await expect(verifySchedulePayloadSignature('a.b', SECRET)).rejects.toThrow(DomainError);
  });

  it('takes a token of exactly the maximum length to the shape check, and refuses one character more', async () => {
    const at = (length: number) => rejection(`${'a'.repeat(length - 4)}.b.c`);
    expect(await at(JWT_MAX_LENGTH)).not.toMatch(/longer than/);
    expect(await at(JWT_MAX_LENGTH + 1)).toBe(`is longer than ${JWT_MAX_LENGTH} characters`);
  });
});
