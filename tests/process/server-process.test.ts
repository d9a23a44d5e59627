import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPaylink } from '../support/process.ts';

/** The paylink process as a newcomer runs it: start, banner, health, lock, config errors, shutdown. */
const fresh = () => ({ PAYLINK_DATA_DIR: mkdtempSync(join(tmpdir(), 'paylink-proc-')), PAYLINK_MASTER_KEY: randomBytes(32).toString('base64') });

describe('server process', () => {
  it('starts on embedded PGlite, prints the banner with the demo link, and serves /healthz', async () => {
    const env = fresh();
    const p = startPaylink(env);
    const url = await p.ready;
    try {
      expect(p.output()).toContain('demo link:');
      expect(p.output()).toContain(`credentials:  written to ${env.PAYLINK_DATA_DIR}/demo-credentials.json`);
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', database: 'pglite' });
      const demo = await fetch(`${url}/pay/demo`);
      expect(demo.status).toBe(200);
      expect(await demo.text()).toContain('<form');
    } finally {
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
    }
    expect(existsSync(join(env.PAYLINK_DATA_DIR, 'paylink.lock'))).toBe(false);
  });

  it('refuses a second process on the same data directory while the first keeps working', async () => {
    const env = fresh();
    const first = startPaylink(env);
    const url = await first.ready;
    try {
      const second = startPaylink(env);
      expect(await second.exited).toBe(1);
      expect(second.output()).toMatch(/data directory .* is in use by another paylink process \(pid \d+\)/);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  });

  it('starts again on a data directory whose previous process was killed with SIGKILL', async () => {
    const env = fresh();
    const first = startPaylink(env);
    await first.ready;
    first.child.kill('SIGKILL');
    await first.exited;
    expect(existsSync(join(env.PAYLINK_DATA_DIR, 'paylink.lock'))).toBe(true);
    const second = startPaylink(env);
    const url = await second.ready;
    try {
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect(second.output()).not.toContain('credentials:  written to'); // the demo exists already: not created twice
      expect(second.output()).toContain('provisioning: 1 integrator, 1 link, 0 cards in the database');
      expect(second.output()).toContain(`demo link:    ${url}/pay/demo`);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  it('prints no demo line where there is no demo: a restart without the seed gives the counts in the database', async () => {
    const env = fresh();
    const seedDir = mkdtempSync(join(tmpdir(), 'paylink-proc-seed-'));
    writeFileSync(join(seedDir, 'seed.json'), readFileSync('examples/seed.json'));
    copyFileSync('examples/acme-logo.svg', join(seedDir, 'acme-logo.svg'));
    const seeded = startPaylink({ ...env, PAYLINK_SEED: join(seedDir, 'seed.json') });
    await seeded.ready;
    expect(seeded.output()).toContain(`provisioning: ${join(seedDir, 'seed.json')} applied (1 integrator, 2 links, 1 card)`);
    seeded.child.kill('SIGTERM');
    expect(await seeded.exited).toBe(0);
    const again = startPaylink(env);
    await again.ready;
    try {
      expect(again.output()).toContain('provisioning: 1 integrator, 2 links, 1 card in the database');
      expect(again.output()).not.toContain('demo link:');
    } finally {
      again.child.kill('SIGTERM');
      await again.exited;
    }
  });

  it('waits at most PAYLINK_SHUTDOWN_TIMEOUT_MS for a request in flight on SIGTERM, then gives up on it and exits cleanly', async () => {
    const p = startPaylink({ ...fresh(), PAYLINK_SHUTDOWN_TIMEOUT_MS: '1500' });
    const url = new URL(await p.ready);
    // A request whose body never arrives in full: in flight until the server gives up on it.
    const socket = connect(Number(url.port), url.hostname);
    await once(socket, 'connect');
    socket.write('POST /api/v1/refund HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"transaction_id":');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    const took = Date.now() - started;
    socket.destroy();
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(5000); // the default (10 s) would still be waiting
  });

  it('stops with a message naming the variable when a setting is invalid', async () => {
    const p = startPaylink({ ...fresh(), PORT: 'eighty' });
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain('invalid configuration');
    expect(p.output()).toContain('PORT:');
  });

  it('refuses `npm run worker` without PostgreSQL', async () => {
    const p = startPaylink(fresh(), ['--worker']);
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain('needs DATABASE_URL');
  });

  it('fails at once with a clear message on Node older than 22, comparing versions as numbers', () => {
    // This Node, reporting another version: no old Node needs to be installed on the machine.
    const checkAs = (version: string) =>
      spawnSync(process.execPath, [
        '--import',
        `data:text/javascript,Object.defineProperty(process,'versions',{value:{...process.versions,node:'${version}'}});Object.defineProperty(process,'version',{value:'v${version}'})`,
        join(process.cwd(), 'scripts/check-node.mjs'),
      ]);
    for (const version of ['20.19.0', '9.11.2', '21.99.99']) {
      const result = checkAs(version);
      expect(result.status, version).toBe(1);
      expect(result.stderr.toString()).toContain(`paylink needs Node.js 22 or newer, but this is v${version}.`);
    }
    for (const version of ['22.0.0', '24.9.0', '100.0.0']) expect(checkAs(version).status, version).toBe(0);
  });
});
