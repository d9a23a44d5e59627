import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, configSchema, loadConfig, publicOrigin } from '../../src/config.ts';

describe('config', () => {
  it('has working defaults for a newcomer', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ host: '127.0.0.1', port: 4321, dataDir: './data', databaseUrl: undefined, logLevel: 'info', checkoutMaxAttempts: 5 });
    expect(config.scheduleRetrySeconds).toEqual([3600, 21600, 86400]);
    expect(publicOrigin(config)).toBe('http://127.0.0.1:4321');
  });

  it('stops with a message naming each bad variable', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', PAYLINK_MASTER_KEY: 'short' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'PAYLINK_MASTER_KEY']) expect(message).toContain(`${name}:`);
      expect(message).toContain('"eighty"');
    }
  });

  it('reads lists and flags', () => {
    const config = loadConfig({ PAYLINK_SCHEDULE_RETRY_SECONDS: '60, 120', PAYLINK_ALLOW_PRIVATE_CALLBACKS: '1', PUBLIC_URL: 'https://pay.example.com/' });
    expect(config.scheduleRetrySeconds).toEqual([60, 120]);
    expect(config.allowPrivateCallbacks).toBe(true);
    expect(publicOrigin(config)).toBe('https://pay.example.com');
    expect(() => loadConfig({ PAYLINK_SCHEDULE_RETRY_SECONDS: '60,-1' })).toThrow('PAYLINK_SCHEDULE_RETRY_SECONDS');
  });
});

describe('config › README', () => {
  it('documents every setting in the README', () => {
    const readme = readFileSync('README.md', 'utf8');
    const missing = Object.keys(configSchema.shape).filter((name) => !readme.includes(`| \`${name}\` |`));
    expect(missing).toEqual([]);
  });
});
