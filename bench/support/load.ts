import { type BenchRow, percentile, round } from './report.ts';

/**
 * A closed-loop load generator: `concurrency` workers each send the next request as soon as the
 * previous answers, for `durationMs`. No dependency: Node's fetch keeps connections alive.
 * `ok` decides whether an answer counts as a success (anything else is an error).
 */
export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  firstError?: string;
}

export async function runLoad(opts: {
  concurrency: number;
  durationMs: number;
  send: (i: number) => Promise<Response>;
  ok: (res: Response, text: string) => boolean;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  let firstError: string | undefined;
  const start = performance.now();
  const deadline = start + opts.durationMs;
  const worker = async () => {
    while (performance.now() < deadline) {
      const i = next++;
      const t0 = performance.now();
      try {
        const res = await opts.send(i);
        const text = await res.text();
        latencies.push(performance.now() - t0);
        if (!opts.ok(res, text)) {
          errors++;
          firstError ??= `${res.status} ${text.slice(0, 300)}`;
        }
      } catch (error) {
        errors++;
        firstError ??= String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  const seconds = (performance.now() - start) / 1000;
  return {
    requests: latencies.length,
    errors,
    seconds: round(seconds, 2),
    rps: round(latencies.length / seconds, 0),
    p50: round(percentile(latencies, 50), 2),
    p99: round(percentile(latencies, 99), 2),
    firstError,
  };
}

/** A report row for a load result, with its rate relative to the run's no-op baseline. */
export function loadRow(name: string, r: LoadResult, baseline?: LoadResult, note?: string): BenchRow {
  return {
    name,
    values: {
      'req/s': r.rps,
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      requests: r.requests,
      errors: r.errors,
      'vs no-op': baseline ? `${round((r.rps / baseline.rps) * 100, 1)} %` : '100 %',
    },
    note,
  };
}
