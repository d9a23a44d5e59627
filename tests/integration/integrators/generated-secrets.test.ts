import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import * as schema from '../../../src/db/schema.ts';
import { generatedSecretsBanner } from '../../../src/domain/integrators/generated-secrets.ts';
import { ProvisioningError } from '../../../src/domain/integrators/provisioning.ts';
import { createTestApp, defaultSeed, provision, type TestApp } from '../../support/app.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const SEED_EMAILS = ['billing@acme.example', 'ops@other.example'];
const openWebhookSecret = async (app: TestApp['app'], email: string) => {
  const [row] = await app.db.select().from(schema.integrators).where(eq(schema.integrators.email, email));
  return app.secrets.open(row!.webhookSecretEnc);
};

describe('generated secrets', () => {
  it('writes webhook secrets the seed leaves out to PAYLINK_GENERATED_SECRETS_FILE, 0600, and nowhere in the data directory', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'paylink-secrets-')), 'generated.json');
    t = await createTestApp({ env: { PAYLINK_GENERATED_SECRETS_FILE: file } });
    const before = readdirSync(t.dataDir);
    const result = await provision(t);
    expect(result.generatedSecrets?.path).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = JSON.parse(readFileSync(file, 'utf8')) as { webhook_secrets: Record<string, string> };
    expect(Object.keys(written.webhook_secrets)).toEqual(SEED_EMAILS);
    for (const email of SEED_EMAILS) expect(written.webhook_secrets[email]).toBe(await openWebhookSecret(t.app, email));
    expect(readdirSync(t.dataDir).filter((name) => !before.includes(name) && !name.startsWith('seed-'))).toEqual([]);
    expect(existsSync(join(t.dataDir, 'webhook-secrets.json'))).toBe(false);
  });

  it('generates nothing again when the same seed is applied again, and keeps earlier entries when a new integrator is added', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'paylink-secrets-')), 'generated.json');
    t = await createTestApp({ env: { PAYLINK_GENERATED_SECRETS_FILE: file } });
    await provision(t);
    const first = readFileSync(file, 'utf8');
    expect((await provision(t)).generatedSecrets).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toBe(first);
    const seed = defaultSeed();
    seed.integrators.push({
      ...seed.integrators[1]!,
      name: 'Third',
      email: 'third@example.com',
      token: 'third-integrator-token-0123456789abcdef',
      links: [],
      users: [],
      cards: [],
    });
    const result = await provision(t, seed);
    expect(Object.keys(result.generatedSecrets!.webhookSecrets)).toEqual(['third@example.com']);
    const written = JSON.parse(readFileSync(file, 'utf8')) as { webhook_secrets: Record<string, string> };
    expect(Object.keys(written.webhook_secrets)).toEqual([...SEED_EMAILS, 'third@example.com']);
    expect(written.webhook_secrets['billing@acme.example']).toBe(JSON.parse(first).webhook_secrets['billing@acme.example']);
  });

  it('without the setting, hands the secrets to the start banner to print once and writes no file', async () => {
    t = await createTestApp();
    const before = readdirSync(t.dataDir);
    const result = await provision(t);
    expect(result.generatedSecrets?.path).toBeUndefined();
    const banner = generatedSecretsBanner(result.generatedSecrets!).join('\n');
    expect(banner).toContain('2 webhook secrets, shown once');
    expect(banner).toContain('PAYLINK_GENERATED_SECRETS_FILE');
    for (const email of SEED_EMAILS) expect(banner).toContain(JSON.stringify(await openWebhookSecret(t.app, email)).slice(1, -1));
    expect(readdirSync(t.dataDir).filter((name) => !before.includes(name) && !name.startsWith('seed-'))).toEqual([]);
    expect(t.logs.join('\n')).not.toContain('whsec_');
  });

  it('refuses the whole seed when the file cannot be written, so no secret is kept that nobody saw', async () => {
    const file = join(tmpdir(), 'paylink-no-such-dir', 'x', 'generated.json');
    t = await createTestApp({ env: { PAYLINK_GENERATED_SECRETS_FILE: file } });
    const error = await provision(t).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProvisioningError);
    expect((error as Error).message).toContain(`PAYLINK_GENERATED_SECRETS_FILE ${file} cannot be written (ENOENT)`);
    expect(await t.app.db.select().from(schema.integrators)).toEqual([]);
  });

  it('refuses a file that is not JSON rather than overwriting what it holds', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'paylink-secrets-')), 'generated.json');
    writeFileSync(file, 'not json');
    t = await createTestApp({ env: { PAYLINK_GENERATED_SECRETS_FILE: file } });
    await expect(provision(t)).rejects.toThrow(`PAYLINK_GENERATED_SECRETS_FILE ${file} cannot be read as JSON`);
    expect(readFileSync(file, 'utf8')).toBe('not json');
  });
});
