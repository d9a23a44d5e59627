import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { percentile, round } from './report.ts';

/** What a flood sends: console sign-ins with wrong passwords (the page's CSRF pair), or one GET path. */
export type FloodLoad = { kind: 'sign-in'; cookie: string; csrf: string; knownEmail: string } | { kind: 'get'; path: string };

export interface FloodResult {
  statuses: Map<number, number>;
  /** "412× 401, 3× 503". */
  answered: string;
  total: number;
  p50: number;
  p99: number;
}

/**
 * Keeps `inFlight` requests in flight until `stop`, each sent again as soon as it is answered, from
 * a worker thread (bench/support/flood-worker.mjs): the flood's own answers then never hold up
 * the event loop that paces and times the measured requests, as they would in one thread.
 */
export async function startFlood(url: string, inFlight: number, load: FloodLoad): Promise<{ stop(): Promise<FloodResult> }> {
  const worker = new Worker(new URL('./flood-worker.mjs', import.meta.url), { workerData: { url, inFlight, load } });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  return {
    async stop() {
      const done = new Promise<{ statuses: [number, number][]; latencies: number[] }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      worker.postMessage('stop');
      const { statuses, latencies } = await done;
      await worker.terminate();
      const map = new Map(statuses);
      return {
        statuses: map,
        answered: statuses.map(([status, count]) => `${count}× ${status || 'error'}`).join(', '),
        total: statuses.reduce((n, [, count]) => n + count, 0),
        p50: round(percentile(latencies, 50), 1),
        p99: round(percentile(latencies, 99), 1),
      };
    },
  };
}

/**
 * CPU time (user + system, ms) the main thread of process `pid` has used: Linux's
 * /proc/<pid>/task/<pid>/stat, in clock ticks of 10 ms; undefined where there is no /proc.
 * Unlike latency, it barely moves with what else the machine runs, so it is the evidence of
 * what a request costs the event loop on a shared machine.
 */
export function mainThreadCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}
