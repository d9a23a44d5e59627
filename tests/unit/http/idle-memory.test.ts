import { describe, expect, it } from 'vitest';
import { collectAllGarbage, IdleReclaimer } from '../../../src/http/idle-memory.ts';
import { createLogger } from '../../../src/log.ts';

function reclaimer(idleMs = 10_000) {
  const calls: number[] = [];
  const lines: string[] = [];
  let now = 0;
  const r = new IdleReclaimer({
    idleMs,
    reclaim: async () => {
      calls.push(now);
    },
    log: createLogger('debug', (line) => lines.push(line)),
  });
  const at = async (t: number) => {
    now = t;
    return r.check(t);
  };
  return { r, calls, lines, at };
}

describe('idle memory reclaim', () => {
  it('never reclaims a process that has served nothing', async () => {
    const { calls, at } = reclaimer();
    for (let t = 0; t <= 60_000; t += 1000) await at(t);
    expect(calls).toEqual([]);
  });

  it('reclaims once, idleMs after the last request of a burst, and logs the resident memory before and after', async () => {
    const { r, calls, lines, at } = reclaimer();
    r.requestServed();
    await at(1000); // traffic seen
    r.requestServed();
    await at(2000); // still traffic: the idle time counts from here
    expect(await at(11_999)).toBe(false);
    expect(await at(12_000)).toBe(true);
    expect(calls).toEqual([12_000]);
    for (let t = 13_000; t <= 60_000; t += 1000) await at(t);
    expect(calls).toEqual([12_000]);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'debug',
      msg: 'memory reclaimed after traffic stopped',
      rss_before_mb: expect.any(Number),
      rss_after_mb: expect.any(Number),
    });
  });

  it('does not reclaim while requests keep coming, and again after the next burst', async () => {
    const { r, calls, at } = reclaimer(5000);
    for (let t = 0; t <= 30_000; t += 1000) {
      r.requestServed();
      expect(await at(t)).toBe(false);
    }
    await at(35_000);
    expect(calls).toEqual([35_000]);
    r.requestServed();
    await at(36_000);
    await at(40_999);
    expect(calls).toEqual([35_000]);
    await at(41_000);
    expect(calls).toEqual([35_000, 41_000]);
  });

  it('logs a warning and carries on when the collection fails', async () => {
    const lines: string[] = [];
    const r = new IdleReclaimer({
      idleMs: 1000,
      reclaim: async () => {
        throw new Error('inspector unavailable');
      },
      log: createLogger('debug', (line) => lines.push(line)),
    });
    r.requestServed();
    await r.check(0);
    expect(await r.check(1000)).toBe(true);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn', msg: 'could not reclaim memory after traffic stopped', error: 'inspector unavailable' });
  });

  it('asks V8 for a full collection that frees what nothing references any more', async () => {
    let collected = false;
    const registry = new FinalizationRegistry(() => {
      collected = true;
    });
    (() => {
      registry.register({ garbage: new Array(1000).fill('x') }, 'garbage');
    })();
    await collectAllGarbage();
    // Finalisers run on a later task.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(collected).toBe(true);
  });
});
