import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { Logger } from './log.ts';

/**
 * Gives the memory a burst of work left behind back once the process goes quiet.
 *
 * Under load V8 grows its heap and keeps the pages after the load stops: the live objects were
 * back to idle size (44 MB after a full collection, 40 MB before the load) while the heap V8 held
 * was 70–75 MB and the process 29 % over its idle RSS, for as long as it stayed idle. V8's own
 * memory reducer, which should give it back, never starts in Node 24: it collects only when the
 * allocation rate is low for the young generation, the old one and the embedder's heap, and with
 * Node's embedder heap allocating nothing its rate reads as "high" for ever (`--trace-memory-reducer`:
 * "high alloc" every 8 s, idle or not; `--trace-mutator-utilization`: embedder 0.000).
 *
 * So the process does it: every CHECK_EVERY_MS it reads its event-loop utilisation and heap size;
 * after two idle checks in a row (under 5 % busy: the workers' polling alone is ~2.5 %), if the heap
 * has grown by 15 % and 8 MB over its smallest idle size since the last collection, it runs one
 * memory-reducing full collection (V8's "last resort": 120–180 ms with a 70 MB heap, while nobody
 * is waiting), at most once a minute. It needs Node's `--expose-gc`, which `npm start` and
 * `npm run worker` pass; without it nothing runs. src/db/pglite.ts keeps PGlite's compiled code
 * through such a collection (without that the recompilation spiked the process by ~500 MB).
 */
export interface IdleCollectionSettings {
  checkEveryMs: number;
  /** Event-loop utilisation (0–1) under which a check counts as idle. */
  idleUtilization: number;
  /** Idle checks in a row before collecting. */
  idleChecks: number;
  /** The heap must have grown by this factor and by minGrowthBytes over its baseline. */
  minGrowthRatio: number;
  minGrowthBytes: number;
  minIntervalMs: number;
}

export const IDLE_COLLECTION: IdleCollectionSettings = {
  checkEveryMs: 5_000,
  idleUtilization: 0.05,
  idleChecks: 2,
  minGrowthRatio: 1.15,
  minGrowthBytes: 8 * 2 ** 20,
  minIntervalMs: 60_000,
};

export interface IdleState {
  /** Idle checks in a row so far. */
  idleChecks: number;
  /** The smallest heap size seen at start, after the last collection, or at an idle check since. */
  baselineBytes: number;
  /** performance.now() of the last collection (-Infinity: none yet). */
  lastCollectedAt: number;
}

export interface IdleSample {
  utilization: number;
  heapBytes: number;
  now: number;
}

/** One check: the state after it, and whether to collect now. */
export function idleCheck(state: IdleState, sample: IdleSample, settings: IdleCollectionSettings = IDLE_COLLECTION): { state: IdleState; collect: boolean } {
  if (sample.utilization >= settings.idleUtilization) return { state: { ...state, idleChecks: 0 }, collect: false };
  const next: IdleState = { ...state, idleChecks: state.idleChecks + 1 };
  const grown = sample.heapBytes >= state.baselineBytes * settings.minGrowthRatio && sample.heapBytes - state.baselineBytes >= settings.minGrowthBytes;
  const collect = next.idleChecks >= settings.idleChecks && grown && sample.now - state.lastCollectedAt >= settings.minIntervalMs;
  if (!grown) next.baselineBytes = Math.min(state.baselineBytes, sample.heapBytes);
  return { state: next, collect };
}

type Gc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

export interface IdleCollectionProbes {
  gc: Gc | undefined;
  utilization(): number;
  heapBytes(): number;
  now(): number;
}

/** The process's own figures: utilisation since the previous call, V8's committed heap, Node's `gc` if exposed. */
function processProbes(): IdleCollectionProbes {
  let last = performance.eventLoopUtilization();
  return {
    gc: (globalThis as { gc?: Gc }).gc,
    utilization() {
      const now = performance.eventLoopUtilization();
      const { utilization } = performance.eventLoopUtilization(now, last);
      last = now;
      return utilization;
    },
    heapBytes: () => getHeapStatistics().total_heap_size,
    now: () => performance.now(),
  };
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** Starts the checks (an unref'd timer); returns how to stop them, or undefined when `gc` is not exposed. */
export function startIdleCollection(
  log: Logger,
  settings: IdleCollectionSettings = IDLE_COLLECTION,
  probes: IdleCollectionProbes = processProbes(),
): (() => void) | undefined {
  const { gc } = probes;
  if (typeof gc !== 'function') {
    log.debug('idle collection off: Node was started without --expose-gc');
    return undefined;
  }
  let state: IdleState = { idleChecks: 0, baselineBytes: probes.heapBytes(), lastCollectedAt: Number.NEGATIVE_INFINITY };
  const timer = setInterval(() => {
    const sample = { utilization: probes.utilization(), heapBytes: probes.heapBytes(), now: probes.now() };
    const check = idleCheck(state, sample, settings);
    state = check.state;
    if (!check.collect) return;
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    const after = probes.heapBytes();
    state = { idleChecks: 0, baselineBytes: after, lastCollectedAt: probes.now() };
    log.debug('memory given back while idle', {
      heapMbBefore: mb(sample.heapBytes),
      heapMbAfter: mb(after),
      ms: Math.round(state.lastCollectedAt - sample.now),
    });
  }, settings.checkEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}
