import { describe, expect, it } from 'vitest';
import { LinkKeyInApiError } from '../../../src/api/auth.ts';
import { DomainError } from '../../../src/domain/errors.ts';
import { hashLinkKey, isLinkKeyShaped, newLinkKey } from '../../../src/domain/integrators/link-keys.ts';
import { hashToken } from '../../../src/domain/integrators/service.ts';
import { seedIntegratorSchema } from '../../../src/schemas/provisioning.ts';

const integrator = {
  name: 'Acme',
  email: 'billing@acme.example',
  token: 'acme_live_token_change_me_0123456789abcdef',
  secret: 'acme_jwt_secret_change_me_0123456789abcdef',
};

describe('link keys › new values', () => {
  it('makes pk_link_ keys of 256 random bits, different every time', () => {
    const keys = new Set(Array.from({ length: 50 }, newLinkKey));
    expect(keys.size).toBe(50);
    for (const key of keys) {
      expect(key).toMatch(/^pk_link_[A-Za-z0-9_-]{43}$/);
      expect(isLinkKeyShaped(key)).toBe(true);
    }
    expect(isLinkKeyShaped('pl_abc')).toBe(false);
  });

  it('hashes a link key apart from the same text as a token', () => {
    const key = newLinkKey();
    expect(hashLinkKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashLinkKey(key)).not.toBe(hashToken(key));
  });
});

describe('link keys › the API refusal', () => {
  it('is known as a link-key refusal only by its code, though every DomainError shares the class test', () => {
    const refusal = new LinkKeyInApiError('int_1');
    expect(refusal).toBeInstanceOf(LinkKeyInApiError);
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal.code).toBe('ER.01.30');
    expect(new DomainError('ER.01.00', 'Unknown Authorization token')).not.toBeInstanceOf(LinkKeyInApiError);
  });
});

describe('link keys › seed', () => {
  it('takes an optional pk_link_ key of 32 to 200 URL-safe characters', () => {
    expect(seedIntegratorSchema.safeParse(integrator).success).toBe(true);
    expect(seedIntegratorSchema.safeParse({ ...integrator, link_key: newLinkKey() }).success).toBe(true);
    for (const bad of ['pk_link_short', `pk_link_${'a'.repeat(201)}`, `pl_${'a'.repeat(43)}`, `pk_link_${'a'.repeat(31)}!`]) {
      const parsed = seedIntegratorSchema.safeParse({ ...integrator, link_key: bad });
      expect(parsed.success, bad).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(['link_key']);
    }
  });

  it('refuses a token written like a link key', () => {
    const parsed = seedIntegratorSchema.safeParse({ ...integrator, token: newLinkKey() });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain('must not start with pk_link_');
  });
});
