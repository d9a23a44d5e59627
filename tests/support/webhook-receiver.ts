import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A real HTTP receiver on 127.0.0.1 for callback tests. Every request is recorded with its raw
 * body; `respond` decides each answer (200 by default). Signatures are checked by the test with
 * the independent `standardwebhooks` package (see `verify`).
 */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export type Responder = (req: ReceivedRequest, res: ServerResponse) => void | Promise<void>;

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** Answers to use in order; when used up, `fallback` answers. */
  respond: Responder[];
  fallback: Responder;
  /** Resolves when at least n requests have arrived. */
  waitFor(n: number): Promise<void>;
  close(): Promise<void>;
}

export const ok: Responder = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
};
export const status =
  (code: number, headers: Record<string, string> = {}, body = ''): Responder =>
  (_req, res) => {
    res.writeHead(code, headers).end(body);
  };

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    received: [],
    respond: [],
    fallback: ok,
    waitFor(n) {
      if (receiver.received.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    const record = { method: req.method ?? '', path: req.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8') };
    receiver.received.push(record);
    for (const w of waiters.filter((w) => receiver.received.length >= w.n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
    const responder = receiver.respond.shift() ?? receiver.fallback;
    await responder(record, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  return receiver;
}

/** Verifies a received request with the standardwebhooks package; throws when it does not verify. */
export function verify(secret: string, req: ReceivedRequest, body = req.body): unknown {
  return new Webhook(secret).verify(body, req.headers);
}
