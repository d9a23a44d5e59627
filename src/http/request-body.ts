import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A request body paylink reads only as far as it needs. Routes read bodies through a web
 * Request; left to itself, a route that stops reading early (a body over the size limit, or a
 * request refused before its body was read: 401, 403, 415) would make the web stream destroy the
 * socket (a connection reset instead of the 413 envelope), or leave the rest of the body in the
 * socket where it is read as the next request on a keep-alive connection (a bare 400).
 *
 * So the route gets a pull-based view of the body (one chunk per read, nothing read before the
 * route asks), and once the response is sent whatever it did not read is read and thrown away,
 * so the response reaches the client and the connection stays usable. A client that keeps
 * sending more than DRAIN_LIMIT_BYTES after its answer has its connection closed.
 */
const DRAIN_LIMIT_BYTES = 4 * 1024 * 1024;

/**
 * The largest body any route reads (link settings with a logo; JSON bodies stop at 64 KiB on
 * their own). The Astro adapter has the same limit (astro.config.mjs) but answers it with a 500:
 * this view stops first, declared (Content-Length) or streamed, and says so through `tooLarge`,
 * which routes turn into the 413 envelope or, on a console form, a 413 page in words.
 */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

/** What a route reading a guarded body meets past the limit. */
export class RequestBodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`Request body over ${limit} bytes`);
    this.name = 'RequestBodyTooLarge';
  }
}

export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function guardRequestBody(
  req: IncomingMessage,
  res: ServerResponse,
  opts: { limit?: number; tooLarge?: (limit: number) => void } = {},
): AsyncIterable<Buffer> {
  const limit = opts.limit ?? MAX_REQUEST_BODY_BYTES;
  const queue: Buffer[] = [];
  let ended = false;
  let received = 0;
  let failure: Error | undefined;
  let stopped = false;
  let discarding = false;
  let discarded = 0;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };

  req.pause();
  req.on('data', (chunk: Buffer) => {
    if (discarding) {
      discarded += chunk.length;
      if (discarded > DRAIN_LIMIT_BYTES) req.socket.destroy();
      return;
    }
    queue.push(chunk);
    req.pause();
    notify();
  });
  req.on('end', () => {
    ended = true;
    notify();
  });
  req.on('error', (error) => {
    failure = error;
    notify();
  });

  const discard = () => {
    if (discarding) return;
    discarding = true;
    for (const chunk of queue.splice(0)) discarded += chunk.length;
    if (!ended) req.resume();
  };
  res.once('finish', () => {
    if (!req.complete) discard();
  });
  // Past the limit every further read fails the same way: never a shortened body.
  let overflow: RequestBodyTooLarge | undefined;
  const overLimit = () => {
    if (!overflow) {
      overflow = new RequestBodyTooLarge(limit);
      queue.length = 0;
      opts.tooLarge?.(limit);
    }
    return overflow;
  };
  const declared = Number(req.headers['content-length']);

  return {
    [Symbol.asyncIterator]() {
      return {
        async next(): Promise<IteratorResult<Buffer>> {
          for (;;) {
            if (overflow || declared > limit) throw overLimit();
            if (stopped || discarding) return { done: true, value: undefined };
            const chunk = queue.shift();
            if (chunk) {
              received += chunk.length;
              if (received > limit) throw overLimit();
              return { done: false, value: chunk };
            }
            if (failure) throw failure;
            if (ended) return { done: true, value: undefined };
            await new Promise<void>((resolve) => {
              wake = resolve;
              req.resume();
            });
          }
        },
        async return(): Promise<IteratorResult<Buffer>> {
          // The route stopped reading (e.g. over the size limit). The rest stays unread (the
          // client waits) until the response is out, then it is drained.
          stopped = true;
          queue.length = 0;
          return { done: true, value: undefined };
        },
      };
    },
  };
}
