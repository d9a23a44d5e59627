import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log.ts';
import { type Loop, startLoop } from '../../../src/workers/loop.ts';

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

describe('worker loop wake-ups', () => {
  it('wakes for its own payload and for one without a payload, not for another worker’s', async () => {
    const db = fakeDatabase();
    let ticks = 0;
    loop = startLoop({
      name: 'mailer',
      intervalMs: AN_HOUR,
      log: createLogger('error', () => {}),
      tick: async () => {
        ticks++;
        return false;
      },
      wakeOn: { database: db.database, channel: 'paylink_outbox', payload: 'email' },
    });
    await tick();
    expect(ticks).toBe(1); // the first tick, then asleep for an hour
    db.notify('callback');
    await tick();
    expect(ticks).toBe(1);
    db.notify('email');
    await tick();
    expect(ticks).toBe(2);
    db.notify(undefined);
    await tick();
    expect(ticks).toBe(3);
  });

  it('without a payload filter, any notification wakes it', async () => {
    const db = fakeDatabase();
    let ticks = 0;
    loop = startLoop({
      name: 'kept',
      intervalMs: AN_HOUR,
      log: createLogger('error', () => {}),
      tick: async () => {
        ticks++;
        return false;
      },
      wakeOn: { database: db.database, channel: 'paylink_sessions' },
    });
    await tick();
    db.notify('');
    await tick();
    expect(ticks).toBe(2);
  });
});
