import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startPaylink } from '../support/process.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'paylink-health-'));
  dirs.push(dir);
  return dir;
};

/** The health listener's URL from the banner. */
const healthUrl = (output: string) => /health: +(http:\/\/\S+\/healthz) \(PAYLINK_HEALTH_LISTEN\)/.exec(output)?.[1];

async function checkHealth(env: Record<string, string>, args: string[]) {
  const p = startPaylink(
    { PAYLINK_DATA_DIR: dataDir(), PAYLINK_MASTER_KEY: randomBytes(32).toString('base64'), PAYLINK_HEALTH_LISTEN: '127.0.0.1:0', ...env },
    args,
  );
  try {
    await p.ready;
    const url = healthUrl(p.output());
    expect(url, p.output()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/healthz$/);
    const res = await fetch(url!);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', database: 'ok', workers: 'ok' });
    expect((await fetch(url!.replace('/healthz', '/metrics'))).status).toBe(404);
    expect((await fetch(url!, { method: 'POST' })).status).toBe(405);
  } finally {
    p.child.kill('SIGTERM');
  }
  expect(await p.exited).toBe(0);
}

describe('the worker health check (PAYLINK_HEALTH_LISTEN)', () => {
  it('answers GET /healthz on its own local listener, beside the workers of a PGlite process', { timeout: 60_000 }, async () => {
    await checkHealth({}, []);
  });

  it.runIf(process.env.DATABASE_URL)('answers for `npm run worker`, which has no public port', { timeout: 60_000 }, async () => {
    // A database of its own: the shared one may hold another test's master key check.
    const name = `paylink_health_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`create database ${name}`);
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = `/${name}`;
      await checkHealth({ DATABASE_URL: url.toString() }, ['--worker']);
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await admin.end();
    }
  });

  it('refuses to start when the address is taken, naming the setting', { timeout: 60_000 }, async () => {
    const first = startPaylink({ PAYLINK_DATA_DIR: dataDir(), PAYLINK_HEALTH_LISTEN: '127.0.0.1:0' });
    await first.ready;
    const taken = healthUrl(first.output())!.replace(/^http:\/\/|\/healthz$/g, '');
    const second = startPaylink({ PAYLINK_DATA_DIR: dataDir(), PAYLINK_HEALTH_LISTEN: taken });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`paylink cannot listen for its health check on ${taken} (PAYLINK_HEALTH_LISTEN)`);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });
});
