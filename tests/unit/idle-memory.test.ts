import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDLE_COLLECTION, type IdleCollectionProbes, type IdleState, idleCheck, startIdleCollection } from '../../src/idle-memory.ts';
import { createLogger } from '../../src/log.ts';

const MB = 2 ** 20;
const start: IdleState = { idleChecks: 0, baselineBytes: 50 * MB, lastCollectedAt: Number.NEGATIVE_INFINITY };
const idle = (heapMb: number, now = 1_000_000) => ({ utilization: 0.02, heapBytes: heapMb * MB, now });
const busy = (heapMb: number, now = 1_000_000) => ({ utilization: 0.4, heapBytes: heapMb * MB, now });

/** Runs the samples through idleCheck from `state`; returns the index of each sample that collected. */
function run(samples: ReturnType<typeof idle>[], state = start) {
  const collected: number[] = [];
  for (const [n, sample] of samples.entries()) {
    const check = idleCheck(state, sample);
    state = check.state;
    if (check.collect) {
      collected.push(n);
      state = { idleChecks: 0, baselineBytes: 50 * MB, lastCollectedAt: sample.now };
    }
  }
  return { collected, state };
}

describe('idleCheck', () => {
  it('collects a grown heap at the second idle check in a row, not the first', () => {
    expect(run([busy(80), idle(80), idle(80)]).collected).toEqual([2]);
  });

  it('never collects while the process is busy, however large the heap', () => {
    expect(run([busy(200), busy(200), busy(200), busy(200)]).collected).toEqual([]);
    // Busy just at the threshold counts as busy.
    expect(
      run([
        { ...idle(200), utilization: IDLE_COLLECTION.idleUtilization },
        { ...idle(200), utilization: IDLE_COLLECTION.idleUtilization },
      ]).collected,
    ).toEqual([]);
  });

  it('a busy check in between starts the count again', () => {
    expect(run([idle(80), busy(80), idle(80), idle(80)]).collected).toEqual([3]);
  });

  it('needs both 15 % and 8 MB of growth over the baseline', () => {
    // 57 MB on 50: 14 % and 7 MB; 58 MB: 16 % and 8 MB.
    expect(run([idle(57), idle(57), idle(57)]).collected).toEqual([]);
    expect(run([idle(58), idle(58)]).collected).toEqual([1]);
    // 15 % of a small heap is under 8 MB: 30 → 36 MB (+20 %, 6 MB) is not enough.
    const small = { ...start, baselineBytes: 30 * MB };
    expect(run([idle(36), idle(36), idle(36)], small).collected).toEqual([]);
    expect(run([idle(38), idle(38)], small).collected).toEqual([1]);
  });

  it('the baseline follows the smallest idle heap down, not a grown one up', () => {
    const { state } = run([idle(45), idle(47)]);
    expect(state.baselineBytes).toBe(45 * MB);
    // From 45 MB, 53 MB is grown enough (+18 %, 8 MB) where it was not on the first baseline of 50.
    expect(idleCheck(state, idle(53)).collect).toBe(true);
    // A grown heap never becomes the baseline, so it is still collected later.
    expect(idleCheck({ ...start, idleChecks: 0 }, idle(80)).state.baselineBytes).toBe(50 * MB);
  });

  it('at most once a minute', () => {
    const t = 1_000_000;
    const after = { idleChecks: 0, baselineBytes: 50 * MB, lastCollectedAt: t };
    expect(run([idle(80, t + 5_000), idle(80, t + 10_000), idle(80, t + 59_999)], after).collected).toEqual([]);
    expect(run([idle(80, t + 55_000), idle(80, t + 60_000)], after).collected).toEqual([1]);
  });
});

describe('startIdleCollection', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** The process as the checks see it: utilisations in turn, a heap the test sets, a collection that takes it to 48 MB. */
  function probes(utilizations: number[]) {
    const heap = { mb: 50 };
    const gc = vi.fn(() => {
      heap.mb = 48;
    });
    let n = 0;
    let now = 0;
    const p: IdleCollectionProbes = {
      gc,
      utilization: () => utilizations[n++] ?? 0.01,
      heapBytes: () => heap.mb * MB,
      now: () => (now += IDLE_COLLECTION.checkEveryMs),
    };
    return { p, gc, heap };
  }

  it('collects once when a grown heap goes idle, with the last-resort flavour, and logs the figures', () => {
    const lines: string[] = [];
    const log = createLogger('debug', (line) => lines.push(line));
    const { p, gc, heap } = probes([0.6, 0.01, 0.01, 0.01, 0.01]);
    const stop = startIdleCollection(log, IDLE_COLLECTION, p)!;
    heap.mb = 80; // the load grew it after the start
    vi.advanceTimersByTime(IDLE_COLLECTION.checkEveryMs * 2);
    expect(gc).not.toHaveBeenCalled();
    vi.advanceTimersByTime(IDLE_COLLECTION.checkEveryMs);
    expect(gc).toHaveBeenCalledTimes(1);
    expect(gc).toHaveBeenCalledWith({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    vi.advanceTimersByTime(IDLE_COLLECTION.checkEveryMs * 2);
    expect(gc).toHaveBeenCalledTimes(1);
    stop();
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'memory given back while idle');
    expect(logged).toMatchObject({ heapMbBefore: 80, heapMbAfter: 48 });
  });

  it('stops when asked, and does nothing at all without an exposed gc', () => {
    const { p, gc, heap } = probes([]);
    const stop = startIdleCollection(createLogger('silent'), IDLE_COLLECTION, p)!;
    heap.mb = 90;
    stop();
    vi.advanceTimersByTime(IDLE_COLLECTION.checkEveryMs * 10);
    expect(gc).not.toHaveBeenCalled();
    expect(startIdleCollection(createLogger('silent'), IDLE_COLLECTION, { ...p, gc: undefined })).toBeUndefined();
  });
});
