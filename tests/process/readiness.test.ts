import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPaylink } from '../support/process.ts';
import { recordStatusCode } from '../support/status-codes-seen.ts';

/** A port free right now: the test must know it before the banner, to ask from the first moment. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const seeded = () => {
  const dir = mkdtempSync(join(tmpdir(), 'paylink-ready-'));
  const seed = JSON.parse(readFileSync('examples/seed.json', 'utf8'));
  writeFileSync(join(dir, 'seed.json'), JSON.stringify(seed));
  copyFileSync('examples/acme-logo.svg', join(dir, 'acme-logo.svg'));
  return { dir, seed, token: seed.integrators[0].token as string, slug: seed.integrators[0].links[0].slug as string };
};

/** The built server started on the example seed, on a port known before it listens. */
async function startSeeded() {
  const { dir, token, slug } = seeded();
  const port = await freePort();
  const p = startPaylink({
    PAYLINK_DATA_DIR: join(dir, 'data'),
    PAYLINK_MASTER_KEY: randomBytes(32).toString('base64'),
    PAYLINK_SEED: join(dir, 'seed.json'),
    PORT: String(port),
    HOST: '127.0.0.1',
  });
  return { p, base: `http://127.0.0.1:${port}`, token, slug };
}

/** One request; `refused` while nothing listens yet. */
async function statusOf(url: string, init?: RequestInit): Promise<number | 'refused'> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 'refused';
  }
}

describe('readiness', () => {
  it('serves no seeded link or token before /readyz says ready: 503 with Retry-After until then, never 404 or 401', async () => {
    const { p, base, token, slug } = await startSeeded();
    const seen: Array<{ ready: number | 'refused'; page: number | 'refused'; api: number | 'refused' }> = [];
    try {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const [page, api, ready] = await Promise.all([
          statusOf(`${base}/pay/${slug}`),
          statusOf(`${base}/api/v1/ping`, { headers: { authorization: token } }),
          statusOf(`${base}/readyz`),
        ]);
        seen.push({ ready, page, api });
        if (ready === 200) break;
        if (Date.now() > deadline) throw new Error(`never ready: ${JSON.stringify(seen.slice(-3))}\n${p.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      // Before ready, each answer was "not listening yet" or 503 (never a 404 for the seeded link
      // or a 401 for the seeded token); the readiness probe itself said 503 while starting.
      for (const { page, api, ready } of seen.slice(0, -1)) {
        expect([page, api, ready].every((s) => s === 'refused' || s === 503 || s === 200)).toBe(true);
        if (ready !== 200) {
          expect(page === 404 || api === 401).toBe(false);
        }
      }
      expect(await statusOf(`${base}/pay/${slug}`)).toBe(200);
      expect(await statusOf(`${base}/api/v1/ping`, { headers: { authorization: token } })).toBe(200);
      const body = (await (await fetch(`${base}/readyz`)).json()) as { status: string; checks: Record<string, string> };
      expect(body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', provisioning: 'ok', workers: 'ok' } });
    } finally {
      p.child.kill('SIGTERM');
      await p.exited;
    }
  });

  it('answers a request that comes while starting with 503 ER.99.02 and Retry-After, and /healthz 200', async () => {
    const { p, base, slug } = await startSeeded();
    try {
      // The seed's console users are hashed with Argon2id while the server already listens: a window of
      // tens of milliseconds at least. Catch a 503 in it (or find the process already ready, and say so).
      let starting: Response | undefined;
      const deadline = Date.now() + 60_000;
      while (!starting && Date.now() < deadline && !/running at/.test(p.output())) {
        try {
          const res = await fetch(`${base}/pay/${slug}`, { signal: AbortSignal.timeout(5_000) });
          if (res.status === 503) starting = res;
          else await res.arrayBuffer();
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      }
      expect(starting, 'no request landed in the start window').toBeDefined();
      expect(starting!.headers.get('retry-after')).toBe('1');
      const body = await starting!.json();
      recordStatusCode(body);
      expect(body).toMatchObject({ status: 503, data: { status_code: 'ER.99.02' } });
      expect(await statusOf(`${base}/healthz`)).toBe(200);
      await p.ready;
    } finally {
      p.child.kill('SIGTERM');
      await p.exited;
    }
  });
});
