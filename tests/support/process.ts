import { type ChildProcess, spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';

/** A paylink process started from the built entry (dist/paylink/server.mjs) with Node 24. */
export interface PaylinkProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the URL once the banner is printed. */
  ready: Promise<string>;
  exited: Promise<number | null>;
}

/** `entry`: what Node runs instead of the built server (its options and script, e.g. `npm start`'s). */
export function startPaylink(
  env: Record<string, string>,
  args: string[] = [],
  entry: string[] = [realpathSync(join(process.cwd(), 'dist/paylink/server.mjs'))],
  /** What runs `entry`: Node 24 unless given (e.g. bin/paylink, a shell script, runs itself). */
  command: string = process.execPath,
): PaylinkProcess {
  const child = spawn(command, [...entry, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /running at (http:\/\/\S+)|worker is running/.exec(out);
      if (match) resolve(match[1] ?? '');
    };
    child.stdout!.on('data', check);
    void exited.then((code) => reject(new Error(`paylink exited (${code}) before it was ready:\n${out}`)));
  });
  ready.catch(() => {});
  return { child, output: () => out, ready, exited };
}
