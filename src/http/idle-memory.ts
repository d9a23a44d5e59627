/**
 * Gives memory back when a burst of traffic ends.
 *
 * Under load V8 grows its heap (the young generation and old-space pages) and keeps what it grew
 * when the load stops: its own memory reducer waits for the embedder to say the process is idle,
 * and Node never does. After the server has answered requests and then none for `idleMs`, this asks
 * V8 once for the collection Chrome asks for under memory pressure (every generation, compacted,
 * empty pages returned to the system), through the in-process inspector: no port is opened. It
 * runs again only after more traffic. Measured in docs/deploy.md ("Memory a machine needs"): after
 * a 2-minute load it took RSS from 244 MB back to 215 MB (idle before the load: 200 MB).
 * The collection pauses the process for tens of milliseconds; it only happens when nothing came in
 * for `idleMs`. Health probes (`/healthz`) are not traffic: a load balancer asking every few seconds
 * would otherwise keep the process from ever being idle. PAYLINK_IDLE_RECLAIM_SECONDS=0 turns it off.
 */

import type { IncomingMessage, Server } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { Logger } from '../log.ts';

/** One memory-reducing full collection of the JavaScript heap (V8's LowMemoryNotification). */
export async function collectAllGarbage(): Promise<void> {
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.collectGarbage');
  } finally {
    session.disconnect();
  }
}

const rssMb = () => Math.round(process.memoryUsage.rss() / 1024 / 1024);

/** Decides when traffic has stopped: counts requests, checked by a timer (nothing per request but a count). */
export class IdleReclaimer {
  private served = 0;
  private seen = 0;
  private busy = false;
  private lastActive = 0;
  private running = false;

  constructor(
    private readonly opts: {
      idleMs: number;
      reclaim: () => Promise<void>;
      log?: Logger;
    },
  ) {}

  requestServed(): void {
    this.served++;
  }

  /** Called every so often with the time; reclaims once when requests came and then stopped for idleMs. */
  async check(now: number): Promise<boolean> {
    if (this.served !== this.seen) {
      this.seen = this.served;
      this.busy = true;
      this.lastActive = now;
      return false;
    }
    if (!this.busy || this.running || now - this.lastActive < this.opts.idleMs) return false;
    this.busy = false;
    this.running = true;
    const before = rssMb();
    const started = performance.now();
    try {
      await this.opts.reclaim();
      this.opts.log?.debug('memory reclaimed after traffic stopped', {
        rss_before_mb: before,
        rss_after_mb: rssMb(),
        took_ms: Math.round(performance.now() - started),
      });
    } catch (error) {
      this.opts.log?.warn('could not reclaim memory after traffic stopped', { error: (error as Error).message });
    } finally {
      this.running = false;
    }
    return true;
  }
}

const isHealthProbe = (url: string | undefined) => url === '/healthz' || url?.startsWith('/healthz?') === true;

/** Watches `server`'s requests and reclaims memory once after each burst; returns a stop function. */
export function reclaimMemoryWhenIdle(server: Server, opts: { idleSeconds: number; log: Logger }): () => void {
  if (opts.idleSeconds <= 0) return () => {};
  const reclaimer = new IdleReclaimer({ idleMs: opts.idleSeconds * 1000, reclaim: collectAllGarbage, log: opts.log });
  const count = (req: IncomingMessage) => {
    if (!isHealthProbe(req.url)) reclaimer.requestServed();
  };
  server.on('request', count);
  const timer = setInterval(() => void reclaimer.check(performance.now()), Math.min(1000, opts.idleSeconds * 250));
  timer.unref();
  return () => {
    clearInterval(timer);
    server.off('request', count);
  };
}
