import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type SanitizeLimits, SvgSanitizeError, sanitizeInBoundedWorker, svgMarkupProblem } from './svg-sanitizer.ts';

/**
 * Logos are stored by paylink and served from its own origin. Only PNG, JPEG, WebP and SVG are
 * accepted, at most 512 KiB; the type is read from the bytes, never trusted from a name. SVG is
 * sanitised (src/domain/links/svg-sanitizer.ts: no DOCTYPE or entities, svgo in a bounded worker,
 * no script, animation or external reference), held to the same 512 KiB afterwards, and refused
 * if anything executable or external is left.
 */
export const MAX_LOGO_BYTES = 512 * 1024;
export type LogoType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/svg+xml';

export class LogoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LogoError';
  }
}

function sniff(bytes: Buffer): LogoType | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  const head = bytes
    .subarray(0, 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head)) return 'image/svg+xml';
  return undefined;
}

/**
 * A last check on what sanitising left (src/domain/links/svg-sanitizer.ts drops all of these):
 * if one is still there, the sanitiser missed it, and the logo is refused rather than stored.
 */
const UNSAFE_SVG = [
  /<script/i,
  /\son[a-z]+\s*=/i,
  /javascript:/i,
  /<foreignObject/i,
  /<!ENTITY/i,
  /<!DOCTYPE/i,
  /<(?:animate|animateMotion|animateTransform|animateColor|set|discard)[\s/>]/i,
  /(?:href|src)\s*=\s*["']\s*(?!#|data:image\/(?:png|jpeg|webp);)/i,
  /@import/i,
  /image-set/i,
  /url\(\s*["']?\s*(?!#)/i,
];

const kib = (bytes: number) => `${Math.ceil(bytes / 1024)} KiB`;

/**
 * Sanitises an SVG logo: refused before parsing when it has a DOCTYPE, an entity or a processing
 * instruction; then svgo in a bounded worker; then refused if it is larger than `maxBytes` or if
 * anything unsafe is left.
 */
export async function sanitizeSvg(svg: string, options: { maxBytes?: number; limits?: SanitizeLimits } = {}): Promise<string> {
  const maxBytes = options.maxBytes ?? MAX_LOGO_BYTES;
  const problem = svgMarkupProblem(svg);
  if (problem) throw new LogoError(problem);
  let cleaned: string;
  try {
    cleaned = await sanitizeInBoundedWorker(svg, options.limits);
  } catch (error) {
    if (error instanceof SvgSanitizeError) throw new LogoError(error.message);
    throw error;
  }
  const size = Buffer.byteLength(cleaned, 'utf8');
  if (size > maxBytes) throw new LogoError(`the SVG is ${kib(size)} once sanitised; at most ${kib(maxBytes)} is accepted`);
  const unsafe = UNSAFE_SVG.find((pattern) => pattern.test(cleaned));
  if (unsafe) throw new LogoError('the SVG references external content or script, which logos may not contain');
  return cleaned;
}

/** Validates logo (or item image: `what`) bytes and returns what to store. */
export async function validateLogo(bytes: Buffer, what: 'logo' | 'image' = 'logo'): Promise<{ contentType: LogoType; bytes: Buffer }> {
  if (bytes.length === 0) throw new LogoError(`the ${what} file is empty`);
  if (bytes.length > MAX_LOGO_BYTES) throw new LogoError(`the ${what} is ${kib(bytes.length)}; at most 512 KiB is accepted`);
  const contentType = sniff(bytes);
  if (!contentType) {
    // Markup that is not recognised as SVG (a DOCTYPE with an internal subset, say): say why.
    const text = bytes.toString('utf8');
    const problem = /^\uFEFF?\s*</.test(text) ? svgMarkupProblem(text) : undefined;
    throw new LogoError(problem ?? `the ${what} must be a PNG, JPEG, WebP or SVG image`);
  }
  if (contentType === 'image/svg+xml') return { contentType, bytes: Buffer.from(await sanitizeSvg(bytes.toString('utf8')), 'utf8') };
  return { contentType, bytes };
}

/** Whether a stored logo may be served: one stored before today's limits may be larger. */
export const isServableLogo = (bytes: Uint8Array) => bytes.length > 0 && bytes.length <= MAX_LOGO_BYTES;

/** Reads a logo (or item image: `what`) given as a data: URL or a file path (relative to `baseDir`). */
export async function readLogoSource(source: string, baseDir: string, what: 'logo' | 'image' = 'logo'): Promise<Buffer> {
  if (source.startsWith('data:')) {
    const match = /^data:([\w.+/-]+)?((?:;[\w-]+=[^;,]*)*)(;base64)?,(.*)$/s.exec(source);
    if (!match) throw new LogoError(`the ${what} data: URL is malformed`);
    return match[3] ? Buffer.from(match[4]!, 'base64') : Buffer.from(decodeURIComponent(match[4]!), 'utf8');
  }
  try {
    return await readFile(resolve(baseDir, source));
  } catch (error) {
    throw new LogoError(`the ${what} file ${source} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
