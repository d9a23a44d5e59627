import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

/**
 * What a browser loads as JavaScript for a page when the customer uses it: inline <script>s,
 * <script src>, the island component and renderer modules Astro's <astro-island> imports, every
 * module those import statically, and every module they import with import() (an open-amount
 * island loads its amount rule that way), transitively. The one import() left out is the Preact
 * renderer's `@preact/signals`, which it loads only for an island given a signal prop
 * (`data-preact-signals` on the <astro-island>); such targets are listed in `dynamicOnly`.
 */
export interface ScriptWeight {
  name: string;
  bytes: number;
  gzip: number;
}

export interface PageWeight {
  scripts: ScriptWeight[];
  totalGzip: number;
  totalBytes: number;
  dynamicOnly: string[];
  inlineScriptHashes: string[];
}

/** Dynamic import() targets a page does not load unless its HTML says so. */
const LOADED_ONLY_WHEN = [{ module: /\/signals\.module\.[\w-]+\.js$/, page: /\bdata-preact-signals=/ }];

const gz = (text: string) => gzipSync(Buffer.from(text), { level: 9 }).length;

export async function measurePageScripts(base: string, html: string): Promise<PageWeight> {
  const scripts: ScriptWeight[] = [];
  const inlineScriptHashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    const body = match[1]!;
    if (body.trim() === '') continue;
    inlineScriptHashes.push(`sha256-${createHash('sha256').update(body).digest('base64')}`);
    scripts.push({ name: `inline #${scripts.length + 1}`, bytes: Buffer.byteLength(body), gzip: gz(body) });
  }
  const queue: string[] = [];
  for (const match of html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)) queue.push(match[1]!);
  for (const match of html.matchAll(/\b(?:component-url|renderer-url|before-hydration-url)="([^"]+)"/g)) queue.push(match[1]!);
  const seen = new Set<string>();
  const dynamic = new Set<string>();
  while (queue.length > 0) {
    const url = new URL(queue.shift()!, base).toString();
    if (seen.has(url)) continue;
    seen.add(url);
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    const text = await res.text();
    scripts.push({ name: new URL(url).pathname, bytes: Buffer.byteLength(text), gzip: gz(text) });
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*)["'`]([^"'`]+\.m?js)["'`]/g)) queue.push(new URL(m[1]!, url).toString());
    for (const m of text.matchAll(/\bimport\(\s*["'`]([^"'`]+)["'`]\s*\)/g)) {
      const target = new URL(m[1]!, url);
      if (LOADED_ONLY_WHEN.some((c) => c.module.test(target.pathname) && !c.page.test(html))) dynamic.add(target.pathname);
      else queue.push(target.toString());
    }
  }
  const loaded = new Set(scripts.map((s) => s.name));
  return {
    scripts,
    totalGzip: scripts.reduce((n, s) => n + s.gzip, 0),
    totalBytes: scripts.reduce((n, s) => n + s.bytes, 0),
    dynamicOnly: [...dynamic].filter((d) => !loaded.has(d)),
    inlineScriptHashes,
  };
}

/** The JS budget of the checkout page (issue 3): 12 KB gzip. */
export const CHECKOUT_JS_BUDGET = 12 * 1024;

/** The JS budget of a console page (issue 12): 40 KB gzip. */
export const CONSOLE_JS_BUDGET = 40 * 1024;
