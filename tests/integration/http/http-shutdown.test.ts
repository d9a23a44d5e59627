import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, createHttpServer, listen } from '../../../src/http/server.ts';
import { startLoop } from '../../../src/workers/loop.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';

/** Graceful shutdown: stop accepting, let in-flight requests and worker ticks finish. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('graceful shutdown', () => {
  it('finishes a request in flight, then refuses new connections', async () => {
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const server = createHttpServer(t.app, {
      clientDir: t.dataDir,
      astroHandler: async (_req, res) => {
        arrived();
        await new Promise((r) => setTimeout(r, 300));
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('finished');
      },
    });
    const port = await listen(server, '127.0.0.1', 0);
    const pending = fetch(`http://127.0.0.1:${port}/slow`).then(async (r) => [r.status, await r.text()]);
    await inFlight;
    const closing = closeServer(server, 5_000);
    expect(await pending).toEqual([200, 'finished']);
    await closing;
    await expect(fetch(`http://127.0.0.1:${port}/slow`)).rejects.toThrow();
  });

  it('lets a worker tick that is running finish before stop resolves', async () => {
    const events: string[] = [];
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const loop = startLoop({
      name: 'test',
      intervalMs: 10_000,
      log: t.app.log,
      tick: async () => {
        events.push('tick started');
        started();
        await new Promise((r) => setTimeout(r, 200));
        events.push('tick finished');
        return false;
      },
    });
    await running;
    await loop.stop();
    events.push('stopped');
    expect(events).toEqual(['tick started', 'tick finished', 'stopped']);
  });
});
