import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Benchmarks are vitest files (bench/*.bench.ts, project "bench", run by `npm run bench`).
 * Each records its measurements here; bench/run.mjs prints them all as one readable report
 * and writes bench/results/latest.md.
 */
export interface BenchRow {
  /** What was measured, e.g. "refund (PGlite)". */
  name: string;
  /** Measured values with units in the key, e.g. { 'req/s': 812, 'p50 ms': 3.1 }. */
  values: Record<string, number | string>;
  note?: string;
}

export function recordBench(section: string, rows: BenchRow[]) {
  const dir = join(process.cwd(), 'bench', 'results', 'parts');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${section.replace(/[^\w-]+/g, '_')}.json`), JSON.stringify({ section, rows, at: new Date().toISOString() }, null, 2));
}

/** Percentile of a sorted-or-not list of numbers (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The databases a bench measures: PGlite always, PostgreSQL when DATABASE_URL is set. */
export const benchDatabases: ('pglite' | 'postgres')[] = ['pglite', ...(process.env.DATABASE_URL ? (['postgres'] as const) : [])];
