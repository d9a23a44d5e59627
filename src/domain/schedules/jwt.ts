import { createHash } from 'node:crypto';
import { compactVerify, errors, jwtVerify } from 'jose';
import { DomainError } from '../errors.ts';

/**
 * The schedule payload (spec §4.1, §5.2): a JWT signed with HS256 by the integrator's secret.
 * Only HS256 is accepted (`none`, RS256 and every other `alg` are refused before any key is
 * used); `exp` and `nbf` are checked when present and `iat` may not lie in the future, each with
 * a small leeway for clock drift. The JWT itself is never logged or stored (only the hash of its
 * signed content, signedContentHash).
 */
export const JWT_CLOCK_TOLERANCE_SECONDS = 60;
/** A compact JWT larger than this is refused before it is parsed. */
export const JWT_MAX_LENGTH = 16 * 1024;

const invalidPayload = (why: string) => new DomainError('ER.01.10', 'Invalid signed payload', { messages: { payload: [why] } });

function headerAlg(token: string): unknown {
  try {
    const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    return header?.alg;
  } catch {
    return undefined;
  }
}

function checkShape(token: string) {
  if (token.length > JWT_MAX_LENGTH) throw invalidPayload(`is longer than ${JWT_MAX_LENGTH} characters`);
  if (!/^[\w-]+\.[\w-]+\.[\w-]*$/.test(token)) throw invalidPayload('is not a compact JWT (three base64url parts separated by dots)');
}

/**
 * What the JWT says, independent of how it is spelled: SHA-256 over the decoded bytes of its
 * header and payload. The last base64url character of a segment carries unused low bits, so one
 * signed content has several spellings (four for a 32-byte HS256 signature); the signature is
 * left out, since for one content and one key it can only ever be the same MAC. Throws ER.01.10
 * when the token is not a compact JWT at all.
 */
export function signedContentHash(token: string): string {
  checkShape(token);
  const [header, payload] = token.split('.') as [string, string];
  const headerBytes = Buffer.from(header, 'base64url');
  return createHash('sha256').update(`paylink-schedule-jws:${headerBytes.length}:`).update(headerBytes).update(Buffer.from(payload, 'base64url')).digest('hex');
}

/**
 * The signature alone (no time claims): for a payload already accepted once, whose claims were
 * checked then. Throws ER.01.10 when the JWT was not signed with HS256 and this secret.
 */
export async function verifySchedulePayloadSignature(token: string, secret: string): Promise<void> {
  checkShape(token);
  try {
    await compactVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'] });
  } catch {
    throw invalidPayload('signature does not match: sign it with HS256 and the secret issued to you');
  }
}

/** Verifies the JWT and returns its claims; throws ER.01.10 saying what is wrong. */
export async function verifySchedulePayload(token: string, secret: string, now: Date): Promise<Record<string, unknown>> {
  checkShape(token);
  const alg = headerAlg(token);
  if (alg !== 'HS256') {
    throw invalidPayload(`must be signed with HS256; this JWT says alg ${typeof alg === 'string' ? JSON.stringify(alg) : '(missing)'}`);
  }
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      currentDate: now,
      clockTolerance: JWT_CLOCK_TOLERANCE_SECONDS,
    }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw invalidPayload('has expired (exp is in the past); sign a new one');
    if (error instanceof errors.JWTClaimValidationFailed) {
      if (error.claim === 'nbf') throw invalidPayload('is not valid yet (nbf is in the future)');
      throw invalidPayload(`has an invalid ${error.claim} claim: ${error.reason}`);
    }
    if (error instanceof errors.JWSSignatureVerificationFailed)
      throw invalidPayload('signature does not match: sign it with HS256 and the secret issued to you');
    if (error instanceof errors.JOSEAlgNotAllowed) throw invalidPayload('must be signed with HS256');
    throw invalidPayload('could not be read as a signed JWT');
  }
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (payload.iat !== undefined && (typeof payload.iat !== 'number' || payload.iat > nowSeconds + JWT_CLOCK_TOLERANCE_SECONDS)) {
    throw invalidPayload('was issued in the future (iat is ahead of the server clock)');
  }
  return payload;
}
