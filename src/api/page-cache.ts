/**
 * Payment pages rendered once per link version, not once per view.
 *
 * A static link's page is the same markup for every customer except its session ticket (signed,
 * fresh per view). The page route renders it once with a placeholder where the ticket goes; the
 * middleware keeps that rendering (body, status and headers: the CSP with its hashes comes with
 * it) under a key that holds everything the page is drawn from, and every later view fills in
 * its own ticket. A changed link, merchant name or logo is a new key, so nothing stale is ever
 * shown; the least recently used renderings are dropped beyond a fixed count, so memory stays
 * bounded. One per process (PaylinkApp.pageCache).
 */

/** Stands where the view's ticket goes; made of characters no escaping changes. */
export const TICKET_PLACEHOLDER = 'paylink0ticket0placeholder0e1f4a7c';

/** Kept renderings (a page is ~17 KB, kept as bytes outside the JavaScript heap: 256 ≈ 4.5 MB at most). */
const MAX_PAGES = 256;

interface RenderedPage {
  body: string;
  status: number;
  headers: [string, string][];
}

/** A kept rendering, encoded once: the bytes around each place the ticket goes. */
interface KeptPage {
  parts: Buffer[];
  status: number;
  headers: [string, string][];
}

/** What the page route asks the middleware to keep: under `key`, then filled with `ticket`. */
export interface RenderOnce {
  pages: PageCache;
  key: string;
  ticket: string;
}

const json = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));

/**
 * Each object's text, by identity: the rows a page is drawn from come from memory kept for many
 * views (LinkCache, SessionCache), so the same object is written out once, not once per view.
 * Kept objects are never changed in place (a change is a new row read from the database).
 */
const written = new WeakMap<object, string>();
const writeOnce = (value: unknown): string => {
  if (typeof value !== 'object' || value === null) return json(value) ?? 'undefined';
  let text = written.get(value);
  if (text === undefined) {
    text = json(value);
    written.set(value, text);
  }
  return text;
};

/** The key for a page drawn from `inputs` (rows and settings: anything that changes the markup). */
export const pageKey = (route: string, inputs: unknown[]): string => `${route}\n${inputs.map(writeOnce).join('\n')}`;

const encode = (page: RenderedPage): KeptPage => ({
  parts: page.body.split(TICKET_PLACEHOLDER).map((part) => Buffer.from(part, 'utf8')),
  status: page.status,
  headers: page.headers,
});

// The body goes out as bytes: no 10 KB string to copy, search and encode again for every view.
const respond = (page: KeptPage, ticket: string): Response => {
  const filling = Buffer.from(ticket, 'utf8');
  const chunks: Buffer[] = [page.parts[0]!];
  for (let i = 1; i < page.parts.length; i++) chunks.push(filling, page.parts[i]!);
  return new Response(Buffer.concat(chunks), { status: page.status, headers: page.headers });
};

export class PageCache {
  private readonly pages = new Map<string, KeptPage>();

  constructor(private readonly max = MAX_PAGES) {}

  get size(): number {
    return this.pages.size;
  }

  /** The kept rendering for `key`, filled with `ticket`; undefined when the page must be rendered. */
  find(key: string, ticket: string): Response | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    // Most recently used last, so the least recently used is dropped first.
    this.pages.delete(key);
    this.pages.set(key, page);
    return respond(page, ticket);
  }

  /** Keeps `page` under `key`, dropping the least recently used beyond the limit; returns it filled with `ticket`. */
  keep(key: string, page: RenderedPage, ticket: string): Response {
    const kept = encode(page);
    this.pages.set(key, kept);
    if (this.pages.size > this.max) this.pages.delete(this.pages.keys().next().value as string);
    return respond(kept, ticket);
  }
}

/** Middleware side: keeps a successful rendering and returns it filled with the view's ticket. */
export async function keepRendered(once: RenderOnce, response: Response): Promise<Response> {
  if (response.status !== 200 || !response.body) return response;
  // Cookies belong to the view that set them, never to the kept rendering.
  const headers = [...response.headers].filter(([name]) => name.toLowerCase() !== 'set-cookie');
  const page: RenderedPage = { body: await response.text(), status: response.status, headers };
  const filled = once.pages.keep(once.key, page, once.ticket);
  for (const cookie of response.headers.getSetCookie()) filled.headers.append('set-cookie', cookie);
  return filled;
}
