import type { Logger } from '../log.ts';

/**
 * A background loop: calls `tick` until stopped. A tick that did work is followed at once by
 * another; an idle one waits `intervalMs`. `stop` lets the current tick finish.
 */
export interface Loop {
  name: string;
  stop(): Promise<void>;
  /** Wake the loop now (e.g. after enqueuing work). */
  poke(): void;
}

export function startLoop(opts: {
  name: string;
  intervalMs: number;
  log: Logger;
  tick: () => Promise<boolean>;
  /** Runs once the last tick has finished (close an HTTP client, an SMTP pool…). */
  onStop?: () => Promise<void>;
}): Loop {
  let stopped = false;
  let wake: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, ms);
    });
  const run = (async () => {
    let failures = 0;
    while (!stopped) {
      let busy = false;
      try {
        busy = await opts.tick();
        failures = 0;
      } catch (error) {
        failures++;
        opts.log.error('worker tick failed', { worker: opts.name, error });
      }
      if (stopped) break;
      if (!busy) await sleep(failures > 0 ? Math.min(opts.intervalMs * 2 ** failures, 30_000) : opts.intervalMs);
    }
  })();
  return {
    name: opts.name,
    poke() {
      clearTimeout(timer);
      wake?.();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wake?.();
      await run;
      await opts.onStop?.();
    },
  };
}
