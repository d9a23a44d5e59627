import type { Database } from '../db/client.ts';
import type { Logger } from '../log.ts';

/**
 * A background loop: calls `tick` until stopped. A tick that did work is followed at once by
 * another; an idle one waits `intervalMs`, or less when it knows when its next work falls due
 * (`{ nextWorkInMs }`, never less than IDLE_MIN_MS). `stop` lets the current tick finish.
 */
export interface Loop {
  name: string;
  stop(): Promise<void>;
  /** Wake the loop now (e.g. after enqueuing work). */
  poke(): void;
  /** How long the tick now running has run, or undefined between ticks (the worker health check). */
  tickRunningForMs?(): number | undefined;
}

/** What a tick answers: it did work (true), found none (false), or found none and knows when some falls due. */
export type TickAnswer = boolean | { nextWorkInMs: number };

/**
 * The shortest idle wait, when a tick says work is already due but found none to take (another loop
 * holds it for a moment): the loop looks again shortly instead of spinning.
 */
export const IDLE_MIN_MS = 50;

/** How long an idle loop waits after `result`. */
export function idleWaitMs(result: TickAnswer, intervalMs: number): number {
  if (typeof result === 'boolean') return intervalMs;
  return Math.min(intervalMs, Math.max(IDLE_MIN_MS, Math.ceil(result.nextWorkInMs)));
}

/** A notification without a payload (a reconnected listener that may have missed some) wakes every loop. */
const wakesUs = (wanted: string | undefined, payload: string | undefined) => wanted === undefined || payload === undefined || payload === wanted;

export function startLoop(opts: {
  name: string;
  intervalMs: number;
  log: Logger;
  tick: () => Promise<TickAnswer>;
  /** Runs once the last tick has finished (close an HTTP client, an SMTP pool…). */
  onStop?: () => Promise<void>;
  /**
   * Wake the loop whenever the database notifies this channel (from any process on PostgreSQL);
   * polling every `intervalMs` stays as the fallback. With `payload`, only notifications that carry
   * it wake the loop (the outbox says 'callback' or 'email': drizzle/0021_outbox_notify_deliverable.sql).
   */
  wakeOn?: { database: Pick<Database, 'listen'>; channel: string; payload?: string };
}): Loop {
  let stopped = false;
  let wake: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  // A poke that arrives while a tick runs is kept, so work written just after the tick looked
  // for it is not left waiting a whole interval.
  let poked = false;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (poked) return resolve();
      wake = resolve;
      timer = setTimeout(resolve, ms);
    });
  let tickStartedAt: number | undefined;
  const run = (async () => {
    let failures = 0;
    while (!stopped) {
      poked = false;
      let result: TickAnswer = false;
      tickStartedAt = Date.now();
      try {
        result = await opts.tick();
        failures = 0;
      } catch (error) {
        failures++;
        opts.log.error('worker tick failed', { worker: opts.name, error });
      }
      tickStartedAt = undefined;
      if (stopped) break;
      if (result !== true) await sleep(failures > 0 ? Math.min(opts.intervalMs * 2 ** failures, 30_000) : idleWaitMs(result, opts.intervalMs));
    }
  })();
  const poke = () => {
    poked = true;
    clearTimeout(timer);
    wake?.();
    wake = undefined;
  };
  const unlisten = opts.wakeOn
    ? opts.wakeOn.database
        .listen(opts.wakeOn.channel, (payload) => wakesUs(opts.wakeOn!.payload, payload) && poke())
        .catch((error: unknown) => {
          opts.log.warn('wake-ups unavailable; the worker polls', { worker: opts.name, error });
          return async () => {};
        })
    : undefined;
  return {
    name: opts.name,
    poke,
    tickRunningForMs: () => (tickStartedAt === undefined ? undefined : Date.now() - tickStartedAt),
    async stop() {
      await (await unlisten)?.();
      stopped = true;
      clearTimeout(timer);
      wake?.();
      wake = undefined;
      await run;
      await opts.onStop?.();
    },
  };
}
