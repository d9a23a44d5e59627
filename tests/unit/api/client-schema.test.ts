import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_SCHEMA_PATH, generateClientSchema } from '../../../scripts/client-schema.ts';

const root = resolve(import.meta.dirname, '../../..');

describe('typed client › generated types', () => {
  it('clients/typescript/schema.d.ts is what the current document generates (npm run client:generate)', async () => {
    const committed = readFileSync(resolve(root, CLIENT_SCHEMA_PATH), 'utf8');
    expect(committed === (await generateClientSchema()), 'clients/typescript/schema.d.ts is stale: run npm run client:generate').toBe(true);
  });

  it('types every documented operation', async () => {
    const text = await generateClientSchema();
    for (const id of ['createDynamicLink', 'refundPayment', 'getTransaction', 'createCardRegistration', 'createSchedule', 'cancelSchedule', 'listEvents']) {
      expect(text).toContain(`    ${id}: {`);
    }
  });
});
