import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPaylink } from '../support/process.ts';

/** The start banner and the first operator (docs/operator.md). */
const fresh = () => ({ PAYLINK_DATA_DIR: mkdtempSync(join(tmpdir(), 'paylink-proc-')), PAYLINK_MASTER_KEY: randomBytes(32).toString('base64') });

describe('start banner › operator', () => {
  it('prints a one-time setup link when no operator exists, and it opens the setup page', async () => {
    const env = fresh();
    const seed = join(env.PAYLINK_DATA_DIR, 'seed.json');
    writeFileSync(seed, JSON.stringify({ integrators: [] }));
    const p = startPaylink({ ...env, PAYLINK_SEED: seed });
    const url = await p.ready;
    try {
      const link = /operator setup \(one-time link, no operator yet\): (\S+)/.exec(p.output())?.[1];
      expect(link).toMatch(new RegExp(`^${url}/operator/setup/[A-Za-z0-9_-]{43}$`));
      const page = await fetch(link!);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Set up your operator account');
    } finally {
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
    }
  });

  it('prints none when the demo made its operator', async () => {
    const p = startPaylink(fresh());
    await p.ready;
    try {
      expect(p.output()).toContain('operator:     http://');
      expect(p.output()).not.toContain('operator setup');
    } finally {
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
    }
  });
});
