import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { parseRetryAfter } from './retry-after.ts';
import { CallbackAddressRefused, type ResolvedTarget, resolveCallbackTarget } from './ssrf.ts';

/**
 * POSTs one signed webhook. The host is resolved and checked by the SSRF guard first; the
 * connection then goes to exactly the checked address (an undici Agent whose `connect.lookup`
 * always answers with it), while the URL's host name stays in the Host header and TLS SNI.
 * Redirects are never followed (a 3xx is a failed attempt), only 2xx is success, and the whole
 * attempt is bounded by `AbortSignal.timeout`.
 */
export interface WebhookMessage {
  url: string;
  id: string;
  timestampSeconds: number;
  body: string;
  signature: string;
}

export interface AttemptOutcome {
  ok: boolean;
  statusCode?: number;
  latencyMs: number;
  /** Short, secret-free description of what went wrong. */
  error?: string;
  retryAfterSeconds?: number;
  /** Retrying cannot help (an unusable URL, a refused IP literal). */
  permanent?: boolean;
}

export const USER_AGENT = 'paylink-webhooks/1';
/** At most this much of a failed response's body is kept with the attempt. */
export const BODY_EXCERPT_CHARS = 200;
const MAX_AGENTS = 128;

export interface WebhookClientOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  now: () => Date;
  /** Resolver override (tests of the guard); the system resolver by default. */
  lookup?: (hostname: string) => Promise<Array<{ address: string; family: number }>>;
}

export class WebhookClient {
  /** One keep-alive agent per (origin, checked address): a reused connection went to a checked address. */
  private agents = new Map<string, Agent>();

  constructor(private readonly options: WebhookClientOptions) {}

  async send(message: WebhookMessage): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(message.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
      if (url.username || url.password) throw new Error('credentials in URL');
    } catch {
      return { ok: false, latencyMs: elapsed(), error: 'callback_url is not a usable http(s) URL', permanent: true };
    }
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    let target: ResolvedTarget;
    try {
      target = await resolveCallbackTarget(url, { allowPrivate: this.options.allowPrivate, lookup: this.options.lookup });
    } catch (error) {
      if (error instanceof CallbackAddressRefused) {
        const literal = error.address !== undefined && (url.hostname === error.address || url.hostname === `[${error.address}]`);
        return { ok: false, latencyMs: elapsed(), error: `refused: ${error.message}`, permanent: literal };
      }
      throw error;
    }
    try {
      const res = await request(url, {
        method: 'POST',
        dispatcher: this.agentFor(url, target),
        signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'webhook-id': message.id,
          'webhook-timestamp': String(message.timestampSeconds),
          'webhook-signature': message.signature,
        },
        body: message.body,
      });
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      const excerpt = ok ? undefined : await readExcerpt(res.body);
      if (ok) await res.body.dump({ limit: 64 * 1024 }).catch(() => {});
      const latencyMs = elapsed();
      if (ok) return { ok, statusCode: res.statusCode, latencyMs };
      const retryAfter = headerValue(res.headers['retry-after']);
      const redirect = res.statusCode >= 300 && res.statusCode < 400;
      return {
        ok,
        statusCode: res.statusCode,
        latencyMs,
        error: redirect
          ? `HTTP ${res.statusCode} redirect not followed${res.headers.location ? ` (location: ${truncate(headerValue(res.headers.location) ?? '', 120)})` : ''}; answer 2xx at the callback_url itself`
          : `HTTP ${res.statusCode}${excerpt ? `: ${excerpt}` : ''}`,
        retryAfterSeconds: parseRetryAfter(retryAfter, this.options.now()),
      };
    } catch (error) {
      return { ok: false, latencyMs: elapsed(), error: describeError(error, signal, this.options.timeoutMs) };
    }
  }

  private agentFor(url: URL, target: ResolvedTarget): Agent {
    const key = `${url.origin}|${target.addresses.map((a) => a.address).join(',')}`;
    let agent = this.agents.get(key);
    if (agent) {
      this.agents.delete(key);
      this.agents.set(key, agent); // most recently used last
      return agent;
    }
    const { address, family, addresses } = target;
    agent = new Agent({
      connections: 8,
      keepAliveTimeout: 4_000,
      connectTimeout: this.options.timeoutMs,
      connect: {
        // Every connection of this agent goes to a checked address, whatever DNS says later
        // (several when the host has several, for Happy Eyeballs between IPv6 and IPv4).
        lookup: (_hostname: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
          if (opts?.all) callback(null, addresses);
          else callback(null, address, family);
        },
      } as never,
    });
    this.agents.set(key, agent);
    while (this.agents.size > MAX_AGENTS) {
      const [oldestKey, oldest] = this.agents.entries().next().value as [string, Agent];
      this.agents.delete(oldestKey);
      void oldest.close().catch(() => {});
    }
    return agent;
  }

  async close(): Promise<void> {
    const agents = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(agents.map((a) => a.destroy().catch(() => {})));
  }
}

const headerValue = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const truncate = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** The first BODY_EXCERPT_CHARS characters of a failed response, on one line. */
async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= BODY_EXCERPT_CHARS * 4) break;
    }
  } catch {
    /* a body cut short still gives an excerpt */
  } finally {
    body.destroy();
  }
  const text = Buffer.concat(chunks).toString('utf8').replace(/\s+/g, ' ').trim();
  return truncate(text, BODY_EXCERPT_CHARS);
}

function describeError(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `timed out after ${timeoutMs} ms`;
  const e = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = e?.code?.startsWith('UND_ERR_') ? (e.cause?.code ?? e.code) : (e?.code ?? e?.cause?.code);
  if (code === 'ECONNREFUSED') return 'connection refused (ECONNREFUSED)';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset by the receiver';
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return `connect timed out after ${timeoutMs} ms`;
  const message = e instanceof Error ? e.message : String(error);
  return truncate(`${code ? `${code}: ` : ''}${message}`, 300);
}
