import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signatureFor, signatureHeader, signingSecrets } from '../../../src/domain/notifications/signing.ts';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const id = 'evt_0123456789abcdef0123456789abcdef';
const body = JSON.stringify({ id, type: 'payment.succeeded', created_at: '2025-01-01T00:00:00.000Z', data: { amount: '250.00' } });
const now = () => Math.floor(Date.now() / 1000);
const headers = (signature: string, ts = now()) => ({ 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signature });

describe('webhook signing', () => {
  it('produces signatures the standardwebhooks package verifies', () => {
    const secret = newSecret();
    const ts = now();
    expect(new Webhook(secret).verify(body, headers(signatureHeader([secret], id, ts, body), ts))).toMatchObject({ id });
  });

  it('matches the Standard Webhooks reference vector', () => {
    // From the Standard Webhooks spec test suite.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const payload = '{"test": 2432232314}';
    expect(signatureFor(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, payload)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('rejects a tampered body', () => {
    const secret = newSecret();
    const ts = now();
    const signature = signatureHeader([secret], id, ts, body);
    expect(() => new Webhook(secret).verify(body.replace('250.00', '2500.00'), headers(signature, ts))).toThrow(/No matching signature/);
  });

  it('rejects a signature made with another secret', () => {
    const ts = now();
    expect(() => new Webhook(newSecret()).verify(body, headers(signatureHeader([newSecret()], id, ts, body), ts))).toThrow(/No matching signature/);
  });

  it('signs with both secrets during a rotation, so either verifies', () => {
    const [current, previous] = [newSecret(), newSecret()];
    const ts = now();
    const signature = signatureHeader([current, previous], id, ts, body);
    expect(signature.split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers(signature, ts))).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers(signature, ts))).toBeTruthy();
  });

  it('keeps a rotated-out secret for 24 hours only', () => {
    const sealer = { open: (s: string) => s.replace('sealed:', ''), seal: (s: string) => `sealed:${s}` };
    const rotatedAt = new Date('2025-01-01T00:00:00Z');
    const integrator = { webhookSecretEnc: 'sealed:new', previousWebhookSecretEnc: 'sealed:old', webhookSecretRotatedAt: rotatedAt };
    expect(signingSecrets({ secrets: sealer }, integrator, new Date('2025-01-01T23:59:59Z'))).toEqual(['new', 'old']);
    expect(signingSecrets({ secrets: sealer }, integrator, new Date('2025-01-02T00:00:00Z'))).toEqual(['new']);
    expect(signingSecrets({ secrets: sealer }, { ...integrator, previousWebhookSecretEnc: null, webhookSecretRotatedAt: null }, rotatedAt)).toEqual(['new']);
  });
});
