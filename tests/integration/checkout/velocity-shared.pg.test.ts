import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.ts';
import { createTestApp, createTestDatabaseUrl } from '../../support/app.ts';

/**
 * Two paylink processes on one PostgreSQL count toward the same limits: a client cannot spread
 * its attempts over the processes behind a load balancer. (PostgreSQL only: *.pg.test.ts.)
 */
describe('velocity limits on PostgreSQL', () => {
  it('are shared by every process on the database', async () => {
    const databaseUrl = await createTestDatabaseUrl();
    // Processes on one database share its master key (a process with another key refuses to start).
    const masterKey = randomBytes(32).toString('base64');
    const env = { PAYLINK_LIMIT_API_REQUESTS: '4/60', PAYLINK_LIMIT_CARD_ATTEMPTS_PER_IP: '2/3600', PAYLINK_MASTER_KEY: masterKey };
    const one = await createTestApp({ databaseUrl, env });
    const two = await createTestApp({ databaseUrl, env });
    try {
      await one.app.rateLimits.countApiRequest('int_shared');
      await two.app.rateLimits.countApiRequest('int_shared');
      await one.app.rateLimits.countApiRequest('int_shared');
      await two.app.rateLimits.countApiRequest('int_shared');
      await expect(one.app.rateLimits.countApiRequest('int_shared')).rejects.toMatchObject({ code: 'ER.02.43' });
      const attempt = { clientIp: '198.51.100.9', scope: 'lnk_shared', open: true, fingerprint: 'fp' };
      await one.app.cardVelocity.beforeAttempt(attempt);
      await two.app.cardVelocity.beforeAttempt(attempt);
      const refused = await two.app.cardVelocity.beforeAttempt(attempt).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DomainError);
      expect((refused as DomainError).retryAfterSeconds).toBeGreaterThan(3500);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
