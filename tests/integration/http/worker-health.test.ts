import { describe, expect, it } from 'vitest';
import type { PaylinkApp } from '../../../src/app.ts';
import { workerHealth } from '../../../src/http/worker-health.ts';
import type { Workers } from '../../../src/workers/index.ts';

const appWith = (ping: () => Promise<void>) => ({ database: { ping }, config: { scheduleLeaseSeconds: 300 } }) as unknown as PaylinkApp;
const up = appWith(async () => {});
const loop = (name: string, runningMs: number | undefined) => ({ name, poke() {}, stop: async () => {}, tickRunningForMs: () => runningMs });
const workersOf = (...loops: ReturnType<typeof loop>[]) => ({ loops, stop: async () => {} }) as Workers;

describe('worker health', () => {
  it('is ok while the database answers and no tick has run longer than a schedule lease', async () => {
    expect(await workerHealth(up, workersOf(loop('callbacks', undefined), loop('scheduler-1', 299_000)), false)).toEqual({
      status: 'ok',
      database: 'ok',
      workers: 'ok',
    });
  });

  it('names the loops whose tick has run longer than the lease (PAYLINK_SCHEDULE_LEASE_SECONDS) as stuck', async () => {
    expect(await workerHealth(up, workersOf(loop('callbacks', 301_000), loop('mailer', 5)), false)).toEqual({
      status: 'unavailable',
      database: 'ok',
      workers: 'stuck',
      stuck: ['callbacks'],
    });
  });

  it('is unavailable when the database does not answer, and shutting down once stopping', async () => {
    const down = appWith(async () => {
      throw new Error('connection refused');
    });
    expect(await workerHealth(down, workersOf(loop('callbacks', undefined)), false)).toMatchObject({ status: 'unavailable', database: 'unavailable' });
    expect(await workerHealth(up, workersOf(), true)).toMatchObject({ status: 'shutting_down' });
    expect(await workerHealth(up, undefined, false)).toEqual({ status: 'ok', database: 'ok', workers: 'not_in_this_process' });
  });
});
