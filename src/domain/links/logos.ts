import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

/**
 * Logos are stored by paylink and served from its own origin. Only PNG, JPEG, WebP and SVG are
 * accepted, at most 512 KiB; the type is read from the bytes, never trusted from a name. SVG is
 * passed through svgo's removeScripts (scripts, event handlers, javascript: links) and refused
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

const UNSAFE_SVG = [
  /<script/i,
  /\son[a-z]+\s*=/i,
  /javascript:/i,
  /<foreignObject/i,
  /<!ENTITY/i,
  /(?:href|src)\s*=\s*["']\s*(?!#|data:image\/(?:png|jpeg|webp);)/i,
  /@import/i,
  /url\(\s*["']?\s*(?!#)/i,
];

/** svgo is loaded by the first SVG logo, not at start: most processes never see one. */
export async function sanitizeSvg(svg: string): Promise<string> {
  const { optimize } = await import('svgo');
  let cleaned: string;
  try {
    cleaned = optimize(svg, { multipass: false, plugins: ['removeScripts', 'removeComments', 'removeMetadata'] }).data;
  } catch (error) {
    throw new LogoError(`the SVG could not be parsed: ${(error as Error).message}`);
  }
  const unsafe = UNSAFE_SVG.find((pattern) => pattern.test(cleaned));
  if (unsafe) throw new LogoError('the SVG references external content or script, which logos may not contain');
  return cleaned;
}

/** Validates logo bytes and returns what to store. */
export async function validateLogo(bytes: Buffer): Promise<{ contentType: LogoType; bytes: Buffer }> {
  if (bytes.length === 0) throw new LogoError('the logo file is empty');
  if (bytes.length > MAX_LOGO_BYTES) throw new LogoError(`the logo is ${Math.ceil(bytes.length / 1024)} KiB; at most 512 KiB is accepted`);
  const contentType = sniff(bytes);
  if (!contentType) throw new LogoError('the logo must be a PNG, JPEG, WebP or SVG image');
  if (contentType === 'image/svg+xml') return { contentType, bytes: Buffer.from(await sanitizeSvg(bytes.toString('utf8')), 'utf8') };
  return { contentType, bytes };
}

/** Reads a logo given as a data: URL or a file path (relative to `baseDir`). */
export async function readLogoSource(source: string, baseDir: string): Promise<Buffer> {
  if (source.startsWith('data:')) {
    const match = /^data:([\w.+/-]+)?((?:;[\w-]+=[^;,]*)*)(;base64)?,(.*)$/s.exec(source);
    if (!match) throw new LogoError('the logo data: URL is malformed');
    return match[3] ? Buffer.from(match[4]!, 'base64') : Buffer.from(decodeURIComponent(match[4]!), 'utf8');
  }
  try {
    return await readFile(resolve(baseDir, source));
  } catch (error) {
    throw new LogoError(`the logo file ${source} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
