import { Secret, TOTP } from 'otpauth';

/**
 * TOTP (RFC 6238) as authenticator apps expect it: SHA-1, 6 digits, 30-second steps, a 160-bit
 * secret. A code one step either side of now is accepted (clock drift), and a step once used is
 * never accepted again (the caller stores the step `verifyTotp` returns).
 */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Steps accepted either side of the current one. */
export const TOTP_WINDOW = 1;

const totp = (secret: string, label = 'paylink') =>
  new TOTP({ issuer: 'paylink', label, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

export const newTotpSecret = () => new Secret({ size: 20 }).base32;

/** The time step a valid, unused code belongs to; undefined when the code is wrong or was used already. */
export function verifyTotp(secret: string, code: string, now: Date, lastStep: number | null): number | undefined {
  const token = code.replace(/\s+/g, '');
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(token)) return undefined;
  const generator = totp(secret);
  const delta = generator.validate({ token, timestamp: now.getTime(), window: TOTP_WINDOW });
  if (delta === null) return undefined;
  const step = generator.counter({ timestamp: now.getTime() }) + delta;
  return lastStep !== null && step <= lastStep ? undefined : step;
}

/** The current code (tests and the enrolment check only). */
export const totpCode = (secret: string, now: Date) => totp(secret).generate({ timestamp: now.getTime() });

/** The otpauth:// URI and its QR code as inline SVG, for enrolment. */
export async function enrolmentView(secret: string, account: string): Promise<{ uri: string; svg: string }> {
  const uri = totp(secret, account).toString();
  // Only enrolment draws a QR code: loaded then, not at start.
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { uri, svg };
}
