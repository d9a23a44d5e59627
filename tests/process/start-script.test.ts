import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPaylink } from '../support/process.ts';

/** The Node options and script of `npm start`'s line in package.json (`node check-node && exec node <these>`). */
const startArgs = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start
  .split('&&')
  .at(-1)!
  .trim()
  .split(/\s+/)
  .slice(2);

/**
 * `npm start`'s script (scripts/start.mjs) runs the server in its own process with two allocator
 * arenas and fixed trim thresholds (MALLOC_ARENA_MAX=2 and the rest, docs/deploy.md): on Linux it replaces itself once with the variable
 * set, so the process that serves is the one started (same pid), and a value already set is kept.
 */
function startScript(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'paylink-start-'));
  const p = startPaylink({ PAYLINK_DATA_DIR: dataDir, PAYLINK_MASTER_KEY: randomBytes(32).toString('base64'), ...env }, [], startArgs);
  const proc = (file: string) => readFileSync(`/proc/${p.child.pid}/${file}`, 'utf8').split('\0').filter(Boolean);
  return {
    ready: p.ready,
    environ: () => Object.fromEntries(proc('environ').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])),
    cmdline: () => proc('cmdline'),
    async stop() {
      p.child.kill('SIGTERM');
      const code = await p.exited;
      rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

describe.runIf(process.platform === 'linux')('npm start', () => {
  it('serves from the process it started, with two allocator arenas and its Node options', async () => {
    expect(startArgs).toEqual(['--expose-gc', '--max-semi-space-size=8', '--heap-growing-percent=20', 'scripts/start.mjs']);
    const s = startScript({});
    try {
      const url = await s.ready;
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect(s.environ()).toMatchObject({ MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '262144' });
      // The same options after the process replaced itself: gc exposed for the idle collection (src/idle-memory.ts).
      expect(s.cmdline()).toEqual(expect.arrayContaining(['--expose-gc', '--max-semi-space-size=8', '--heap-growing-percent=20']));
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });

  it('keeps a MALLOC_ARENA_MAX the operator set', async () => {
    const s = startScript({ MALLOC_ARENA_MAX: '4' });
    try {
      await s.ready;
      expect(s.environ().MALLOC_ARENA_MAX).toBe('4');
      expect(s.environ().MALLOC_TRIM_THRESHOLD_).toBeUndefined();
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });
});

/** Whether anything still listens at `url` (the server gone: refused). */
async function answers(url: string): Promise<boolean> {
  try {
    await (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) })).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

describe.runIf(process.platform === 'linux')('supervised start', () => {
  const env = () => ({ PAYLINK_DATA_DIR: mkdtempSync(join(tmpdir(), 'paylink-sup-')), PAYLINK_MASTER_KEY: randomBytes(32).toString('base64') });

  it('SIGTERM to `npm start` stops the server too: no orphan keeps serving', async () => {
    // npm as a newcomer runs it (the machine's npm; the script finds Node 24 on npm's PATH).
    const npm = realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
    const p = startPaylink(env(), [], [npm, 'start', '--silent']);
    const url = await p.ready;
    expect(await answers(url)).toBe(true);
    p.child.kill('SIGTERM');
    await p.exited;
    // The server had its own graceful shutdown; give it its time, then nothing may answer.
    const deadline = Date.now() + 20_000;
    while ((await answers(url)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await answers(url)).toBe(false);
  });

  it('bin/paylink is the server itself: SIGTERM to the pid it started exits 0', async () => {
    const p = startPaylink(env(), [], [], join(process.cwd(), 'bin/paylink'));
    const url = await p.ready;
    // The shell replaced itself with Node: the pid the supervisor knows is the server's.
    expect(realpathSync(`/proc/${p.child.pid}/exe`)).toBe(realpathSync('node_modules/.bin/node'));
    expect(await answers(url)).toBe(true);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(await answers(url)).toBe(false);
  });
});
