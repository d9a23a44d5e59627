import { describe, expect, it } from 'vitest';
import { isServableLogo, LogoError, MAX_LOGO_BYTES, sanitizeSvg, validateLogo } from '../../../src/domain/links/logos.ts';
import { MAX_SANITIZING, SANITIZE_LIMITS, sanitizing, svgMarkupProblem } from '../../../src/domain/links/svg-sanitizer.ts';

const NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"';
const svg = (inner: string) => `<svg ${NS} width="10" height="10">${inner}</svg>`;
const refusal = async (bytes: string | Buffer) => {
  try {
    await validateLogo(typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(LogoError);
    return (error as Error).message;
  }
  return undefined;
};

/**
 * Billion laughs as svgo's parser expands it: an entity declared inside a comment in a DOCTYPE's
 * internal subset (svgo's parser finds the declaration anyway, and the comment hides it from a
 * check of the output), the DOCTYPE after a comment (so the 1 KiB type sniff reads both as one long
 * comment), then referenced hundreds of times: 2 KB in, over 200 KB out.
 */
function craftedEntityBomb(): string {
  const laugh = 'lol'.repeat(150);
  const doctype = `<!DOCTYPE svg [ <!-- <!ENTITY a "${laugh}"> --> ]>`;
  return `<!-- logo --> ${doctype}<!-- end --><svg ${NS}><text>${'&a;'.repeat(500)}</text></svg>`;
}

describe('logos › SVG entities and declarations', () => {
  it('a crafted DOCTYPE with entities after a comment is refused fast, before any parser, naming the DOCTYPE', async () => {
    const bomb = craftedEntityBomb();
    expect(bomb.length).toBeLessThan(2_500);
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const message = await refusal(bomb);
    const took = performance.now() - started;
    expect(message).toBe('the SVG has a DOCTYPE, which logos may not contain; save it again without one');
    // Refused from the text alone: no worker, no svgo, no expansion.
    expect(took).toBeLessThan(50);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(8 * 1024 * 1024);
  });

  it('a DOCTYPE is found in any letter case, behind a BOM and whitespace, inside a comment or CDATA', () => {
    for (const text of [
      '<!doctype svg><svg/>',
      '\uFEFF  \n<!DocType svg><svg/>',
      '<?xml version="1.0"?><!-- a --><!DOCTYPE svg><svg/>',
      svg('<!-- <!DOCTYPE x> -->'),
      svg('<style><![CDATA[ <!DOCTYPE x> ]]></style>'),
    ])
      expect(svgMarkupProblem(text), text).toMatch(/DOCTYPE/);
  });

  it('entity declarations, other markup declarations and processing instructions are refused', () => {
    expect(svgMarkupProblem(svg('<!ENTITY x "y">'))).toMatch(/declares an entity/);
    expect(svgMarkupProblem(svg('<!ELEMENT x ANY>'))).toMatch(/markup declaration/);
    expect(svgMarkupProblem(`<?xml-stylesheet href="https://evil.example/a.css"?>${svg('')}`)).toMatch(/processing instruction/);
    expect(svgMarkupProblem(`<?xml version="1.0"?>${svg('<?php echo 1 ?>')}`)).toMatch(/processing instruction/);
  });

  it('only the five predefined and numeric entity references are allowed', () => {
    expect(svgMarkupProblem(`<?xml version="1.0" encoding="UTF-8"?>${svg('<text>&amp;&lt;&gt;&quot;&apos;&#38;&#x26;&#x1F600;</text>')}`)).toBeUndefined();
    for (const reference of ['&lol;', '&AMP;', '&nbsp;', '&#xZZ;', '&#X26;', '& ', '&amp'])
      expect(svgMarkupProblem(svg(`<text>${reference}</text>`)), reference).toMatch(/entity reference/);
  });
});

describe('logos › sanitising in a bounded worker', () => {
  const manyShapes = svg('<g><rect width="1" height="1" fill="#c00"/></g>'.repeat(9000));

  it('an SVG that needs more memory than the worker may use is refused, and the server carries on', async () => {
    const message = await sanitizeSvg(manyShapes, { limits: { ...SANITIZE_LIMITS, maxOldGenerationSizeMb: 16 } }).then(
      (out) => out.slice(0, 40),
      (e: Error) => e.message,
    );
    expect(message).toBe('the SVG needs more than 16 MiB to sanitise; simplify it or send a PNG');
    expect(await sanitizeSvg(svg('<rect width="1" height="1"/>'))).toContain('<rect');
  });

  it('an SVG that takes longer than the time limit is refused, and the event loop keeps turning meanwhile', async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    const message = await sanitizeSvg(manyShapes, { limits: { ...SANITIZE_LIMITS, timeoutMs: 50 } }).then(
      (out) => out.slice(0, 40),
      (e: Error) => e.message,
    );
    clearInterval(ticker);
    expect(message).toBe('the SVG took longer than 0.05 seconds to sanitise; simplify it or send a PNG');
    expect(ticks).toBeGreaterThanOrEqual(3);
  });

  it('at most two SVGs are sanitised at once; the others wait their turn', async () => {
    let most = 0;
    const watcher = setInterval(() => (most = Math.max(most, sanitizing().running)), 1);
    const all = Promise.all(Array.from({ length: 5 }, (_, i) => sanitizeSvg(svg(`<rect width="${i + 1}" height="1"/>`))));
    expect(sanitizing()).toEqual({ running: MAX_SANITIZING, waiting: 5 - MAX_SANITIZING });
    const results = await all;
    clearInterval(watcher);
    expect(results.map((out) => /width="(\d)"/.exec(out.slice(out.indexOf('<rect')))?.[1])).toEqual(['1', '2', '3', '4', '5']);
    expect(most).toBe(MAX_SANITIZING);
    expect(sanitizing()).toEqual({ running: 0, waiting: 0 });
  });

  it('what is left after sanitising is held to the logo size limit', async () => {
    const logo = svg(`<text>${'x'.repeat(3900)}</text>`);
    await expect(sanitizeSvg(logo, { maxBytes: 2048 })).rejects.toThrow('the SVG is 4 KiB once sanitised; at most 2 KiB is accepted');
    await expect(sanitizeSvg(logo)).resolves.toContain('xxxx');
  });

  it('a stored logo larger than the limit is not servable', () => {
    expect(isServableLogo(new Uint8Array(MAX_LOGO_BYTES))).toBe(true);
    expect(isServableLogo(new Uint8Array(MAX_LOGO_BYTES + 1))).toBe(false);
    expect(isServableLogo(new Uint8Array(0))).toBe(false);
  });
});

describe('logos › animation and external references are dropped', () => {
  const clean = async (inner: string) => (await validateLogo(Buffer.from(svg(inner), 'utf8'))).bytes.toString('utf8');

  it('drops animation elements, which could set href after sanitising', async () => {
    const out = await clean(
      '<a href="#top"><rect width="1" height="1"><set attributeName="href" to="https://evil.example/"/><animate attributeName="href" values="https://evil.example/"/></rect></a>' +
        '<animateMotion dur="1s"/><animateTransform attributeName="transform" type="scale"/><discard begin="1s"/>',
    );
    expect(out).not.toMatch(/<(?:set|animate|animateMotion|animateTransform|discard)\b/);
    expect(out).not.toContain('evil.example');
    expect(out).toContain('<rect');
  });

  it('drops href and src that are not a fragment or a PNG, JPEG or WebP data: image', async () => {
    const out = await clean(
      '<use href="#shape"/><image xlink:href="https://evil.example/a.png"/><image href="//evil.example/b.png"/>' +
        '<image href="data:image/svg+xml;base64,PHN2Zy8+"/><image href="data:image/png;base64,iVBORw0KGgo="/><a href="https://evil.example/"><rect width="1" height="1"/></a>',
    );
    expect(out).toContain('href="#shape"');
    expect(out).toContain('href="data:image/png;base64,iVBORw0KGgo="');
    expect(out).not.toContain('evil.example');
    expect(out).not.toContain('image/svg+xml');
  });

  it('drops CSS with external URLs: image-set(), url(), @import, in style attributes, <style> and presentation attributes', async () => {
    const out = await clean(
      '<style>.a{fill:url(#g)}</style>' +
        '<style>.b{background:image-set("https://evil.example/x.png" 1x)}</style>' +
        '<style>@import "https://evil.example/a.css";</style>' +
        '<style>.c{background:u\\72l(https://evil.example/e)}</style>' +
        '<rect width="1" height="1" style="fill:url(#g)"/>' +
        '<rect width="2" height="2" style="background:image-set(\'https://evil.example/y.png\' 1x)"/>' +
        '<rect width="3" height="3" fill="url(https://evil.example/f)" filter="url(#blur)"/>',
    );
    expect(out).toContain('<style>.a{fill:url(#g)}</style>');
    expect(out).toContain('style="fill:url(#g)"');
    expect(out).toContain('filter="url(#blur)"');
    expect(out).not.toContain('evil.example');
    expect(out).not.toContain('image-set');
    expect(out).not.toContain('@import');
  });
});
