import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log.ts';
import { IDLE_MIN_MS, idleWaitMs, type Loop, startLoop } from '../../../src/workers/loop.ts';

/**
 * A loop woken by a channel's notifications: with a payload filter it wakes only for its own
 * payload, and for a notification without one (a listener that reconnected and may have missed some).
 */
const AN_HOUR = 60 * 60 * 1000;
let loop: Loop | undefined;
afterEach(async () => {
  await loop?.stop();
  loop = undefined;
});

function fakeDatabase() {
  let notify: ((payload?: string) => void) | undefined;
  return {
    database: {
      listen: async (_channel: string, onNotify: (payload?: string) => void) => {
        notify = onNotify;
        return async () => {
          notify = undefined;
        };
      },
    },
    notify: (payload?: string) => notify!(payload),
  };
}

const tick = () => new Promise((r) => setTimeout(r, 20));

/** A loop that polls once an hour, woken by `db`'s notifications on `channel` (carrying `payload`, when given); counts its ticks. */
function countingLoop(db: ReturnType<typeof fakeDatabase>, channel: string, payload?: string) {
  const counted = { ticks: 0 };
  loop = startLoop({
    name: 'counting',
    intervalMs: AN_HOUR,
    log: createLogger('error', () => {}),
    tick: async () => {
      counted.ticks++;
      return false;
    },
    wakeOn: { database: db.database, channel, payload },
  });
  return counted;
}

describe('worker loop wake-ups', () => {
  it('wakes for its own payload and for one without a payload, not for another worker’s', async () => {
    const db = fakeDatabase();
    const counted = countingLoop(db, 'paylink_outbox', 'email');
    await tick();
    expect(counted.ticks).toBe(1); // the first tick, then asleep for an hour
    db.notify('callback');
    await tick();
    expect(counted.ticks).toBe(1);
    db.notify('email');
    await tick();
    expect(counted.ticks).toBe(2);
    db.notify(undefined);
    await tick();
    expect(counted.ticks).toBe(3);
  });

  it('without a payload filter, any notification wakes it', async () => {
    const db = fakeDatabase();
    const counted = countingLoop(db, 'paylink_sessions');
    await tick();
    db.notify('');
    await tick();
    expect(counted.ticks).toBe(2);
  });
});

describe('worker loop idle waits', () => {
  it('waits the poll interval, or until the work it knows of falls due, never less than IDLE_MIN_MS', () => {
    expect(idleWaitMs(false, 1000)).toBe(1000);
    expect(idleWaitMs({ nextWorkInMs: 300.2 }, 1000)).toBe(301);
    expect(idleWaitMs({ nextWorkInMs: 5000 }, 1000)).toBe(1000);
    expect(idleWaitMs({ nextWorkInMs: 0 }, 1000)).toBe(IDLE_MIN_MS);
    expect(idleWaitMs({ nextWorkInMs: -2000 }, 1000)).toBe(IDLE_MIN_MS);
  });

  it('ticks again when its next work falls due, though it polls once an hour', async () => {
    const at: number[] = [];
    loop = startLoop({
      name: 'due-soon',
      intervalMs: AN_HOUR,
      log: createLogger('error', () => {}),
      tick: async () => {
        at.push(Date.now());
        return { nextWorkInMs: 100 };
      },
    });
    await new Promise((r) => setTimeout(r, 350));
    expect(at.length).toBeGreaterThanOrEqual(3);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(95);
  });
});
