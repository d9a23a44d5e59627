import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { Logger } from './log.ts';

/**
 * Gives back the heap a burst of work left behind once the process goes quiet: V8's own memory
 * reducer never starts under Node 24, so the process runs one memory-reducing full collection after
 * two idle checks in a row, when the heap has grown well past its idle size, at most once a minute.
 * Needs Node's `--expose-gc` (`npm start` and `npm run worker` pass it); without it nothing runs.
 * Why and the measurements: docs/deploy.md, "Giving memory back when idle".
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
