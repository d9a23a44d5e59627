import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSeed, TEST_TOKEN } from '../support/app.ts';
import { CARD_EXPIRY } from '../support/cards.ts';

/**
 * The built server under strace (Debian's package; .ci/run installs it): with PAYLINK_PGLITE_SYNC
 * at its default, every answered payment and refund is written to its socket only after the write-
 * ahead log file it last wrote to was flushed (fdatasync or fsync) after that write; with `off`,
 * nothing in the data directory is ever flushed. src/db/pglite-sync.ts, docs/deploy.md#durability.
 */
const hasStrace = spawnSync('strace', ['-V']).status === 0;
if (!hasStrace) console.warn('pglite sync: strace is missing (apt-get install strace): the traced durability tests are SKIPPED');

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** One system call as strace -f -y printed it, at the place in the trace where it returned. */
interface Call {
  name: string;
  /** The path strace resolved the first argument (a descriptor) to. */
  path: string;
  /** The arguments after the descriptor, and the result. */
  rest: string;
}

/** Parses `strace -f -tt -y` output; a call split by another thread's (`<unfinished ...>`) is placed where it resumed. */
function parseTrace(text: string): Call[] {
  const calls: Call[] = [];
  const pending = new Map<string, { name: string; path: string; rest: string }>();
  for (const line of text.split('\n')) {
    const resumed = /^(\d+)\s+\S+\s+<\.\.\. (\w+) resumed>(.*)$/.exec(line);
    if (resumed) {
      const started = pending.get(resumed[1]!);
      pending.delete(resumed[1]!);
      if (started) calls.push({ name: started.name, path: started.path, rest: started.rest + resumed[3]! });
      continue;
    }
    const renamed = /^\d+\s+\S+\s+(rename\w*)\((?:[^"]*?, )?"([^"]+)"(.*)$/.exec(line);
    if (renamed) {
      calls.push({ name: 'rename', path: renamed[2]!, rest: renamed[3]! });
      continue;
    }
    const call = /^(\d+)\s+\S+\s+(\w+)\(\d+<([^>]*)>(.*)$/.exec(line);
    if (!call) continue;
    const [, tid, name, path, rest] = call as unknown as [string, string, string, string, string];
    if (rest.endsWith('<unfinished ...>')) pending.set(tid, { name, path, rest });
    else calls.push({ name, path, rest });
  }
  return calls;
}

const isWalWrite = (c: Call) => c.name === 'pwrite64' && c.path.includes('/pg_wal/');
const isFlush = (c: Call) => (c.name === 'fdatasync' || c.name === 'fsync') && /\)\s*=\s*0\s*$/.test(c.rest);
/** An HTTP answer written to a socket, with what it answers (the envelope's `path`, in its first bytes). */
const answerTo = (c: Call) =>
  (c.name === 'write' || c.name === 'writev') && c.path.startsWith('socket:') && c.rest.includes('HTTP/1.1 ')
    ? (/\\"path\\":\\"([^\\"]+)\\"/.exec(c.rest)?.[1] ?? '')
    : undefined;

/** For each payment and refund answered: whether the log file written last before it was flushed between that write and the answer. */
function answersAfterFlush(calls: Call[]) {
  const answers: { to: string; flushed: boolean }[] = [];
  let lastWalWrite = -1;
  for (const [i, call] of calls.entries()) {
    if (isWalWrite(call)) lastWalWrite = i;
    const to = answerTo(call);
    if (to === undefined || !(to === '/api/v1/refund' || to.endsWith('/pay'))) continue;
    const written = calls[lastWalWrite];
    const flushed = !!written && calls.slice(lastWalWrite + 1, i).some((c) => isFlush(c) && c.path === written.path);
    answers.push({ to, flushed });
  }
  return answers;
}

/**
 * For each write of pg_control (a checkpoint moving where recovery starts, or the state at a stop): the
 * files written since the one before it that were not flushed between their last write and it.
 */
function unflushedAtControlWrites(calls: Call[], dataDir: string) {
  const control = join(dataDir, 'pglite', 'global', 'pg_control');
  const unflushed: string[][] = [];
  let lastWrite = new Map<string, number>();
  for (const [i, call] of calls.entries()) {
    if (call.name === 'pwrite64' && call.path === control) {
      unflushed.push([...lastWrite].filter(([path, at]) => !calls.slice(at + 1, i).some((c) => isFlush(c) && c.path === path)).map(([path]) => path));
      lastWrite = new Map();
    } else if (call.name === 'pwrite64' && call.path.startsWith(join(dataDir, 'pglite/')) && !call.path.includes('/pgsql_tmp/')) lastWrite.set(call.path, i);
  }
  return unflushed;
}

/** Starts the built server under strace, pays twice and refunds each payment twice over HTTP, stops it; the parsed trace. */
async function traced(env: Record<string, string>): Promise<{ calls: Call[]; dataDir: string; answered: string[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'paylink-sync-'));
  dirs.push(dataDir);
  const seed = join(dataDir, 'seed.json');
  writeFileSync(seed, JSON.stringify(defaultSeed()));
  const trace = join(dataDir, 'strace.txt');
  const server = realpathSync(join(process.cwd(), 'dist/paylink/server.mjs'));
  const events = 'trace=pwrite64,write,writev,fdatasync,fsync,rename,renameat,renameat2';
  const child = spawn('strace', ['-f', '-tt', '-y', '-s', '160', '--seccomp-bpf', '-e', events, '-o', trace, process.execPath, server], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_LEVEL: 'warn',
      PORT: '0',
      PAYLINK_DATA_DIR: dataDir,
      PAYLINK_MASTER_KEY: randomBytes(32).toString('base64'),
      PAYLINK_SEED: seed,
      // No background work: each answer in the trace follows only its own request's statements.
      PAYLINK_WORKERS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /running at (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`paylink exited (${code}) before it was ready:\n${out}`)));
  });
  const answered: string[] = [];
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return (await res.json()) as Record<string, any>;
  };
  try {
    for (let i = 0; i < 2; i++) {
      const link = await post('/pay/acme-books', { key: TEST_TOKEN, payment: { merchant_reference_id: `traced-${i}` } });
      const token = new URL(link.link).pathname.split('/')[2]!;
      const paid = await post(`/checkout/${token}/pay`, {
        fields: { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' },
        card: { number: '4242424242424242', expiry: CARD_EXPIRY, cvc: '123', name: 'Juan Dela Cruz' },
      });
      answered.push(paid.data.status_code);
      for (let j = 0; j < 2; j++) {
        const refunded = await post(
          '/api/v1/refund',
          { transaction_id: paid.data.transaction_id, notify_user: false, reason: 'traced', amount: 1 },
          { authorization: TEST_TOKEN },
        );
        answered.push(refunded.data.status_code);
      }
    }
  } finally {
    // Stop paylink itself (strace's child), so that strace writes the whole trace and exits with it.
    const [pid] = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/);
    if (pid) process.kill(Number(pid), 'SIGTERM');
    await exited;
  }
  return { calls: parseTrace(readFileSync(trace, 'utf8')), dataDir, answered };
}

describe.skipIf(!hasStrace)('pglite sync › the built server under strace', () => {
  // One traced run with the default setting serves the tests below it.
  let durable: ReturnType<typeof traced> | undefined;
  const tracedDurable = () => (durable ??= traced({}));

  it('answers each payment and refund only after an fdatasync of the log file it last wrote, done after that write', { timeout: 240_000 }, async () => {
    const { calls, answered } = await tracedDurable();
    expect(answered).toEqual(['OK.03.00', 'OK.04.00', 'OK.04.00', 'OK.03.00', 'OK.04.00', 'OK.04.00']);
    const answers = answersAfterFlush(calls);
    expect(answers.filter((a) => a.to === '/api/v1/refund')).toHaveLength(4);
    expect(answers.filter((a) => a.to.endsWith('/pay'))).toHaveLength(2);
    expect(answers.filter((a) => !a.flushed)).toEqual([]);
  });

  it('flushes each file of the template a first start unpacks before it renames the directory into place', { timeout: 240_000 }, async () => {
    const { calls, dataDir } = await tracedDurable();
    const partial = join(dataDir, 'pglite.partial');
    const placed = calls.findIndex((c) => c.name === 'rename' && c.path === partial);
    expect(placed).toBeGreaterThan(0);
    const flushed = new Set(calls.slice(0, placed).flatMap((c) => (c.name === 'fsync' && c.path.startsWith(`${partial}/`) ? [c.path] : [])));
    // The template holds ~970 files in ~27 directories, the directory itself among them.
    expect(flushed.size).toBeGreaterThan(900);
    expect(calls.slice(0, placed).some((c) => c.name === 'fsync' && c.path === partial)).toBe(true);
  });

  it('writes pg_control (checkpoints, the stop) only once every file written before it was flushed after its last write', { timeout: 240_000 }, async () => {
    const { calls, dataDir } = await tracedDurable();
    const unflushed = unflushedAtControlWrites(calls, dataDir);
    // At least the start and the shutdown checkpoint at SIGTERM.
    expect(unflushed.length).toBeGreaterThanOrEqual(2);
    expect(unflushed.flat()).toEqual([]);
  });

  it('with PAYLINK_PGLITE_SYNC=off flushes nothing in the data directory', { timeout: 240_000 }, async () => {
    const { calls, answered, dataDir } = await traced({ PAYLINK_PGLITE_SYNC: 'off' });
    expect(answered).toHaveLength(6);
    expect(calls.filter(isWalWrite).length).toBeGreaterThan(0);
    expect(answersAfterFlush(calls)).toHaveLength(6);
    // What the rules above check is there to check: answers after log writes, pg_control after data writes.
    expect(answersAfterFlush(calls).filter((a) => !a.flushed)).toHaveLength(6);
    expect(unflushedAtControlWrites(calls, dataDir).flat().length).toBeGreaterThan(0);
    expect(calls.filter((c) => (c.name === 'fdatasync' || c.name === 'fsync') && c.path.startsWith(join(dataDir, 'pglite')))).toEqual([]);
  });
});
