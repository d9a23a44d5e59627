import { connect } from 'node:net';

/** One HTTP/1.1 response as read off a socket. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Talks HTTP/1.1 over a plain socket, for what fetch hides: a body sent in pieces or bigger than
 * it says, several requests on one keep-alive connection, and whether the server answered or
 * reset the connection. Sends `chunks` (written one after another) and reads until `responses`
 * complete responses have arrived or the server closes; resolves with them and how it ended.
 */
export function rawExchange(
  base: string,
  chunks: Array<string | Buffer>,
  opts: { responses?: number; timeoutMs?: number } = {},
): Promise<{ responses: RawResponse[]; reset: boolean; closed: boolean }> {
  const { hostname, port } = new URL(base);
  const wanted = opts.responses ?? 1;
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let buffer = Buffer.alloc(0);
    const responses: RawResponse[] = [];
    let reset = false;
    let closed = false;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ responses, reset, closed });
    };
    const timer = setTimeout(finish, opts.timeoutMs ?? 10_000);
    const parse = () => {
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1').split('\r\n');
        const status = Number(head[0]!.split(' ')[1]);
        const headers: Record<string, string> = {};
        for (const line of head.slice(1)) {
          const i = line.indexOf(':');
          headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
        }
        let rest = buffer.subarray(end + 4);
        let body: Buffer;
        if (headers['transfer-encoding'] === 'chunked') {
          const parts: Buffer[] = [];
          for (;;) {
            const lineEnd = rest.indexOf('\r\n');
            if (lineEnd < 0) return;
            const size = Number.parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
            if (rest.length < lineEnd + 2 + size + 2) return;
            parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
            rest = rest.subarray(lineEnd + 2 + size + 2);
            if (size === 0) break;
          }
          body = Buffer.concat(parts);
        } else {
          const length = Number(headers['content-length'] ?? 0);
          if (rest.length < length) return;
          body = rest.subarray(0, length);
          rest = rest.subarray(length);
        }
        buffer = rest;
        responses.push({ status, headers, body: body.toString('utf8') });
        if (responses.length >= wanted) finish();
      }
    };
    socket.on('data', (data) => {
      buffer = Buffer.concat([buffer, data]);
      parse();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') reset = true;
      finish();
    });
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (done) return;
        const flushed = socket.write(chunk);
        if (!flushed) await new Promise((r) => socket.once('drain', r));
      }
    });
  });
}

/** A request with a chunked body of `size` bytes of JSON, in 8 KiB chunks. */
export function chunkedJsonRequest(path: string, size: number, headers: Record<string, string> = {}): Buffer[] {
  const body = Buffer.from(`{"note":"${'x'.repeat(Math.max(0, size - 12))}"}`);
  return chunkedRequest('POST', path, body, { 'Content-Type': 'application/json', ...headers });
}

/** A request whose `body` is sent chunked (Transfer-Encoding: chunked), in chunks of `chunkSize` bytes (8 KiB). */
export function chunkedRequest(method: string, path: string, body: Buffer, headers: Record<string, string> = {}, chunkSize = 8192): Buffer[] {
  const head = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Transfer-Encoding: chunked']
    .concat(Object.entries(headers).map(([k, v]) => `${k}: ${v}`))
    .join('\r\n');
  const out = [Buffer.from(`${head}\r\n\r\n`)];
  for (let i = 0; i < body.length; i += chunkSize) {
    const part = body.subarray(i, i + chunkSize);
    out.push(Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]));
  }
  out.push(Buffer.from('0\r\n\r\n'));
  return out;
}

/** A request whose body is sent whole with its Content-Length. */
export function lengthRequest(method: string, path: string, body: Buffer, headers: Record<string, string> = {}): Buffer[] {
  const head = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', `Content-Length: ${body.length}`]
    .concat(Object.entries(headers).map(([k, v]) => `${k}: ${v}`))
    .join('\r\n');
  return [Buffer.from(`${head}\r\n\r\n`), body];
}

export const getRequest = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
