import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * `npm start` as a user runs it, in a process group of its own, with the paylink server process
 * (the `node … scripts/start.mjs` that npm starts) found among its descendants so its memory can
 * be read from /proc: VmRSS (resident now) and VmHWM (the kernel's high-water mark of resident
 * memory since the process started).
 */
export interface Memory {
  rssMb: number;
  hwmMb: number;
}

export interface StartedServer {
  url: string;
  /** The paylink server process (not npm's). */
  pid: number;
  /** From spawning `npm start` to the first 200 from /readyz (ready for traffic). */
  healthyMs: number;
  /** The highest VmRSS seen by the 0.5 s sampler so far. */
  sampledPeakMb(): number;
  memory(): Memory;
  /** Everything the process wrote (banner, log lines), for a failure message. */
  output(): string;
  stop(): Promise<void>;
}

const mb = (kb: string | undefined) => Math.round((Number(kb ?? 0) / 1024) * 10) / 10;

export function readMemory(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rssMb: mb(/VmRSS:\s+(\d+)/.exec(status)?.[1]), hwmMb: mb(/VmHWM:\s+(\d+)/.exec(status)?.[1]) };
}

function children(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent pid is the 2nd field after the command name, which may itself hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

function findServerPid(root: number): number | undefined {
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    try {
      // node itself, not the shell npm runs the script line with (whose one argument also ends so).
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (/(^|\/)node$/.test(args[0]!) && args.some((arg) => arg.endsWith('scripts/start.mjs'))) return pid;
    } catch {
      continue;
    }
    pending.push(...children(pid));
  }
  return undefined;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function npmStart(opts: { cwd: string; env: Record<string, string | undefined>; timeoutMs?: number }): Promise<StartedServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, HOST: '127.0.0.1', PORT: String(port), ...opts.env })) if (value !== undefined) env[key] = value;
  // The bench runs under vitest: a leaked NODE_ENV=test or vitest variable must not reach the server.
  delete env.NODE_ENV;
  for (const key of Object.keys(env)) if (key.startsWith('VITEST')) delete env[key];

  let output = '';
  const started = performance.now();
  const npm: ChildProcess = spawn('npm', ['start', '--silent'], { cwd: opts.cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  npm.stdout?.on('data', (chunk) => (output += chunk));
  npm.stderr?.on('data', (chunk) => (output += chunk));
  let exited = false;
  npm.once('exit', () => (exited = true));

  let pid: number | undefined;
  let peak = 0;
  const sample = () => {
    pid ??= findServerPid(npm.pid!);
    if (pid === undefined) return;
    try {
      peak = Math.max(peak, readMemory(pid).rssMb);
    } catch {
      // exited
    }
  };
  const sampler = setInterval(sample, 500);

  const alive = () => !exited || (pid !== undefined && existsSync(`/proc/${pid}`));
  const stop = async () => {
    clearInterval(sampler);
    if (!alive()) return;
    // The server shuts down gracefully on SIGTERM, and npm exits with it.
    try {
      process.kill(pid ?? -npm.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    for (let waited = 0; alive() && waited < 20_000; waited += 100) await sleep(100);
    if (alive()) {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };

  const deadline = started + (opts.timeoutMs ?? 120_000);
  let healthyMs: number | undefined;
  while (healthyMs === undefined) {
    if (exited || performance.now() > deadline) {
      await stop();
      throw new Error(`npm start did not become healthy (${exited ? 'it exited' : 'timed out'}):\n${output}`);
    }
    try {
      if ((await fetch(`${url}/readyz`)).ok) healthyMs = performance.now() - started;
    } catch {
      // not listening yet
    }
    if (healthyMs === undefined) await sleep(25);
  }
  for (let waited = 0; pid === undefined && waited < 5_000; waited += 100) {
    sample();
    if (pid === undefined) await sleep(100);
  }
  if (pid === undefined) {
    await stop();
    throw new Error('the paylink server process (scripts/start.mjs) was not found under npm');
  }
  const serverPid = pid;
  sample();
  return {
    url,
    pid: serverPid,
    healthyMs: Math.round(healthyMs),
    sampledPeakMb: () => peak,
    memory: () => readMemory(serverPid),
    output: () => output,
    stop,
  };
}

/** Waits until the banner is printed: start-up (migrations, provisioning) is over. */
export async function untilBanner(server: StartedServer, timeoutMs = 120_000): Promise<void> {
  for (let waited = 0; !server.output().includes('stop with Ctrl+C'); waited += 100) {
    if (waited > timeoutMs) throw new Error(`no start-up banner:\n${server.output()}`);
    await sleep(100);
  }
}
