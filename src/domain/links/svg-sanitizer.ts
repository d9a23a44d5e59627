import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import pLimit from 'p-limit';
import type { CustomPlugin, optimize as svgoOptimize, XastElement, XastParent } from 'svgo';

/**
 * SVG logos are sanitised in three steps:
 *
 * 1. `svgMarkupProblem` reads the text before any parser does and refuses what an XML parser would
 *    expand or fetch: a DOCTYPE, an entity declaration, any `<!…>` other than a comment or CDATA,
 *    any processing instruction but the leading `<?xml …?>` (an `xml-stylesheet` loads CSS), and
 *    every entity reference other than XML's five predefined ones and numeric ones. It searches
 *    the whole text, comments and CDATA included, in any letter case, so no ordering trick (a
 *    DOCTYPE after a comment, behind a BOM or whitespace, inside CDATA) gets past it.
 * 2. svgo runs in a worker thread of its own with a memory ceiling and a time limit
 *    (`SANITIZE_LIMITS`): a hostile file can neither block the server's event loop nor grow its
 *    heap; the worker is terminated when either is reached.
 * 3. In that worker, `sanitizeInWorker` drops scripts, event handlers, animation elements (which
 *    can set `href` after sanitising), and every external reference: an `href`/`src` that is not a
 *    same-document fragment or a PNG/JPEG/WebP data: image, and CSS (`style` attributes, `<style>`
 *    elements, presentation attributes) with `@import`, `url()` not to a fragment, `image-set()`,
 *    `image()`, `src()`, `@font-face` or an escape.
 */

/** Memory (MiB) and time the worker sanitising one SVG may use; svgo itself takes about 20 MiB of heap. */
export const SANITIZE_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, codeRangeSizeMb: 16, stackSizeMb: 4, timeoutMs: 5_000 };
export type SanitizeLimits = typeof SANITIZE_LIMITS;
/** Workers sanitising at once per process; more SVGs wait their turn, so memory stays bounded by uploads at once too. */
export const MAX_SANITIZING = 2;
const oneAtATime = pLimit(MAX_SANITIZING);
/** Workers running now, and SVGs waiting for one. */
export const sanitizing = () => ({ running: oneAtATime.activeCount, waiting: oneAtATime.pendingCount });

/** Why the SVG text is refused before parsing, or undefined. */
export function svgMarkupProblem(svg: string): string | undefined {
  if (/<!DOCTYPE/i.test(svg)) return 'the SVG has a DOCTYPE, which logos may not contain; save it again without one';
  if (/<!ENTITY/i.test(svg)) return 'the SVG declares an entity, which logos may not contain; save it again without one';
  if (/<!(?!--|\[CDATA\[)/.test(svg)) return 'the SVG has a markup declaration (<!…>), which logos may not contain; only comments and CDATA are allowed';
  const body = svg.replace(/^\uFEFF?\s*<\?xml\s[^>]*\?>/, '');
  if (body.includes('<?')) return 'the SVG has a processing instruction (such as xml-stylesheet), which logos may not contain';
  const reference = /&(?!(?:amp|lt|gt|quot|apos);|#[0-9]{1,7};|#x[0-9a-fA-F]{1,6};)[^;\s<]{0,24};?/.exec(svg);
  if (reference)
    return `the SVG uses the entity reference ${JSON.stringify(reference[0])}; only &amp; &lt; &gt; &quot; &apos; and numeric references (&#38;) are allowed`;
  return undefined;
}

/** The svgo entry the worker loads (its CommonJS bundle: one file, quick to load). */
let svgoEntry: string | undefined;
const svgoPath = () => (svgoEntry ??= createRequire(import.meta.url).resolve('svgo'));

type Optimize = typeof svgoOptimize;

/**
 * Runs inside the worker. It is sent there as source text, so it must use nothing from outside
 * its own body (no imports, no module-level names): only its arguments and JavaScript's globals.
 */
export function sanitizeInWorker(optimize: Optimize, svg: string): string {
  const ANIMATION = new Set(['animate', 'set', 'animatemotion', 'animatetransform', 'animatecolor', 'discard', 'script', 'foreignobject']);
  const LINK = /^(?:[\w-]+:)?(?:href|src)$/i;
  const SAFE_LINK = /^\s*(?:#|data:image\/(?:png|jpeg|webp);base64,[A-Za-z0-9+/=\s]*$)/i;
  const FRAGMENT_URL = /url\(\s*(['"]?)#[^'")\\]*\1\s*\)/gi;
  const EXTERNAL_CSS = /@import|@font-face|url\s*\(|image-set|image\s*\(|cross-fade|element\s*\(|src\s*\(|expression\s*\(|binding|behavior|\\/i;
  const externalCss = (css: string) => {
    const withoutComments = css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '');
    return [css, withoutComments].some((text) => EXTERNAL_CSS.test(text.replace(FRAGMENT_URL, '')));
  };
  const textOf = (node: { value?: string; children?: unknown[] }): string =>
    (node.value ?? '') + (node.children ?? []).map((child) => textOf(child as { value?: string; children?: unknown[] })).join('');
  const paylinkExternalReferences: CustomPlugin = {
    name: 'paylinkExternalReferences',
    fn: () => ({
      element: {
        enter(node: XastElement, parent: XastParent) {
          const name = node.name.toLowerCase();
          if (ANIMATION.has(name) || (name === 'style' && externalCss(textOf(node)))) {
            parent.children = parent.children.filter((child) => child !== node);
            return;
          }
          const attributes = node.attributes;
          for (const [attribute, value] of Object.entries(attributes)) {
            const drop =
              /^on/i.test(attribute) ||
              /^xml:base$/i.test(attribute) ||
              (LINK.test(attribute) ? !SAFE_LINK.test(value) : externalCss(value) || /javascript:/i.test(value));
            if (drop) delete attributes[attribute];
          }
        },
      },
    }),
  };
  return optimize(svg, { multipass: false, plugins: ['removeScripts', 'removeComments', 'removeMetadata', paylinkExternalReferences] }).data;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { optimize } = require(workerData.svgo);
const sanitize = (${sanitizeInWorker.toString()});
try {
  parentPort.postMessage({ ok: true, svg: sanitize(optimize, workerData.svg) });
} catch (error) {
  parentPort.postMessage({ ok: false, message: String((error && error.message) || error) });
}
`;

export class SvgSanitizeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SvgSanitizeError';
  }
}

/**
 * Sanitises `svg` with svgo in a worker bounded by `limits`, at most MAX_SANITIZING at once (the
 * time limit starts when its worker does); rejects with SvgSanitizeError.
 */
export const sanitizeInBoundedWorker = (svg: string, limits: SanitizeLimits = SANITIZE_LIMITS): Promise<string> =>
  oneAtATime(() => sanitizeInWorkerThread(svg, limits));

function sanitizeInWorkerThread(svg: string, limits: SanitizeLimits): Promise<string> {
  const { timeoutMs, ...resourceLimits } = limits;
  return new Promise((resolve, reject) => {
    let settled = false;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { svgo: svgoPath(), svg }, resourceLimits, stdout: true, stderr: true });
    const finish = (outcome: { svg: string } | { error: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      if ('svg' in outcome) resolve(outcome.svg);
      else reject(new SvgSanitizeError(outcome.error));
    };
    const timer = setTimeout(() => finish({ error: `the SVG took longer than ${timeoutMs / 1000} seconds to sanitise; simplify it or send a PNG` }), timeoutMs);
    worker.once('message', (message: { ok: true; svg: string } | { ok: false; message: string }) =>
      finish(message.ok ? { svg: message.svg } : { error: `the SVG could not be parsed: ${message.message}` }),
    );
    worker.on('error', (error: NodeJS.ErrnoException) =>
      finish({
        error:
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? `the SVG needs more than ${resourceLimits.maxOldGenerationSizeMb} MiB to sanitise; simplify it or send a PNG`
            : 'the SVG could not be sanitised',
      }),
    );
    worker.once('exit', () => finish({ error: 'the SVG could not be sanitised' }));
  });
}
