import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { operators } from '../../../src/db/schema.ts';
import { applyProvisioning } from '../../../src/domain/integrators/provisioning.ts';
import { completeSetup, issueSetupLink, operatorSignIn } from '../../../src/domain/operators/accounts.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
const from = { ip: null, userAgent: 'operator-demo-test' };

describe('operator › demo', () => {
  it('the demo writes an operator sign-in into demo-credentials.json (0600) that signs in', async () => {
    t = await createTestApp();
    await applyProvisioning(t.app, undefined);
    const path = join(t.dataDir, 'demo-credentials.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const creds = JSON.parse(readFileSync(path, 'utf8'));
    expect(creds).toMatchObject({ operator_email: 'operator@paylink.localhost', operator_url: expect.stringMatching(/\/operator$/) });
    const [row] = await t.app.db.select().from(operators);
    expect(JSON.stringify(row)).not.toContain(creds.operator_password);
    expect((await operatorSignIn(t.app, { email: creds.operator_email, password: creds.operator_password }, from)).kind).toBe('signed-in');
    // With an operator, the start banner prints no setup link.
    expect(await issueSetupLink(t.app)).toBeUndefined();
  });

  it('an installation that already has an operator gets no demo operator', async () => {
    t = await createTestApp();
    const link = await issueSetupLink(t.app);
    await completeSetup(
      t.app,
      link!.url.split('/').at(-1)!,
      { email: 'lead@example.com', password: 'first operator phrase', confirm: 'first operator phrase' },
      from,
    );
    await applyProvisioning(t.app, undefined);
    const creds = JSON.parse(readFileSync(join(t.dataDir, 'demo-credentials.json'), 'utf8'));
    expect(creds.operator_email).toBeUndefined();
    expect(await t.app.db.$count(operators)).toBe(1);
  });
});
