import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Argon2 } from './passwords.ts';

/**
 * Argon2id in worker threads that lower their own scheduling priority (nice 19). On a small
 * machine a hash takes a whole core for ~50 ms: at the default priority, sign-ins in flight take
 * that core from the event loop, the database and everything else the process answers. At nice
 * 19 a hash runs on what the rest leaves idle, so payments and pages keep their speed while a
 * sign-in storm only waits longer (and its queue fills, ER.01.04). Linux keeps a nice value per
 * thread, so only these threads are lowered; elsewhere `setPriority` may fail and is ignored.
 */
/** The highest nice value: a thread at it runs only on what the rest of the machine leaves idle. */
const LOWEST_PRIORITY = 19;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
try { require('node:os').setPriority(0, ${LOWEST_PRIORITY}); } catch {}
const argon2 = require(workerData.argon2);
parentPort.on('message', ({ id, op, password, hash, options }) => {
  try {
    const value = op === 'hash' ? argon2.hashSync(password, { ...options, salt: options.salt && Buffer.from(options.salt) }) : argon2.verifySync(hash, password);
    parentPort.postMessage({ id, value });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

interface Thread {
  worker: Worker;
  /** Jobs posted to this thread and not answered yet, by id. */
  jobs: Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>;
}

/** `threads` workers; callers keep at most that many jobs running (PasswordHasher's limit does). */
export function argon2Threads(threads: number): Argon2 {
  const argon2Path = createRequire(import.meta.url).resolve('@node-rs/argon2');
  let pool: Thread[] = [];
  let nextId = 0;
  const startThread = (): Thread => {
    const thread: Thread = { worker: new Worker(WORKER_SOURCE, { eval: true, workerData: { argon2: argon2Path } }), jobs: new Map() };
    // A thread keeps the process alive only while it holds a job (an idle one never delays shutdown).
    thread.worker.unref();
    thread.worker.on('message', ({ id, value, error }: { id: number; value?: never; error?: string }) => {
      const job = thread.jobs.get(id);
      thread.jobs.delete(id);
      if (thread.jobs.size === 0) thread.worker.unref();
      if (error === undefined) job?.resolve(value as never);
      else job?.reject(new Error(error));
    });
    thread.worker.on('error', (error) => {
      // A thread that died fails what it held; the next job starts a new one.
      pool = pool.filter((t) => t !== thread);
      for (const job of thread.jobs.values()) job.reject(error);
      thread.jobs.clear();
    });
    return thread;
  };
  const run = <T>(message: Record<string, unknown>) =>
    new Promise<T>((resolve, reject) => {
      while (pool.length < threads) pool.push(startThread());
      const thread = pool.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
      const id = nextId++;
      thread.jobs.set(id, { resolve: resolve as (value: never) => void, reject });
      thread.worker.ref();
      thread.worker.postMessage({ id, ...message });
    });
  return {
    hash: ((password: string, options?: object) => run<string>({ op: 'hash', password, options: { ...options } })) as Argon2['hash'],
    verify: ((hash: string, password: string) => run<boolean>({ op: 'verify', hash, password })) as Argon2['verify'],
  };
}
