import { createHash } from 'node:crypto';
import QRCode from 'qrcode';
import type { DomainContext } from '../context.ts';
import { isDynamicOnly } from './form.ts';

/**
 * A static link's QR code, for printing at a counter: it encodes the link's full public address
 * (app.origin() + /pay/{slug}). Unknown, inactive and dynamic-only links have none (a customer
 * scanning it could not pay). An expired or used-up link keeps its code: the page it opens says
 * why it cannot be paid. Reads only; nothing is stored in the database.
 *
 * Drawing a code takes 50–100 ms of CPU, so each is drawn once per link version and kept in
 * `QrCache`; its ETag is derived from the same key, so a client that has it gets 304 without a
 * drawing, and a changed link (a new `updated_at`) gets a new ETag.
 */
export type QrFormat = 'svg' | 'png';

/** Error correction M (15%): survives a crease or a smudge on a printed code. */
const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 2 } as const;
/** PNG side in pixels: sharp when printed at 5 cm (250 dpi). */
export const QR_PNG_WIDTH = 512;
/** Bytes of drawn codes kept per process (a PNG is ~3 KB, an SVG ~7 KB: about a thousand codes). */
export const QR_CACHE_BYTES = 8 * 1024 * 1024;

export const linkPublicUrl = (app: Pick<DomainContext, 'origin'>, slug: string) => `${app.origin()}/pay/${slug}`;

export interface QrImage {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
}

/** The least recently used drawings are dropped once the kept bytes pass `maxBytes`. */
export class QrCache {
  private readonly images = new Map<string, QrImage>();
  private keptBytes = 0;

  constructor(private readonly maxBytes = QR_CACHE_BYTES) {}

  get size(): number {
    return this.images.size;
  }

  get bytes(): number {
    return this.keptBytes;
  }

  find(key: string): QrImage | undefined {
    const image = this.images.get(key);
    if (!image) return undefined;
    // Most recently used last, so the least recently used is dropped first.
    this.images.delete(key);
    this.images.set(key, image);
    return image;
  }

  keep(key: string, image: QrImage): void {
    if (image.body.byteLength > this.maxBytes) return;
    const previous = this.images.get(key);
    if (previous) {
      this.images.delete(key);
      this.keptBytes -= previous.body.byteLength;
    }
    this.images.set(key, image);
    this.keptBytes += image.body.byteLength;
    for (const [oldKey, old] of this.images) {
      if (this.keptBytes <= this.maxBytes) break;
      this.images.delete(oldKey);
      this.keptBytes -= old.body.byteLength;
    }
  }
}

/** A link's code as the endpoint sees it before drawing: where it points, its cache key and ETag. */
export interface QrCode {
  url: string;
  format: QrFormat;
  key: string;
  etag: string;
}

/** The code of the active static link at `slug`, or undefined when it has none. Draws nothing. */
export async function findQrCode(app: DomainContext, slug: string, format: QrFormat): Promise<QrCode | undefined> {
  const found = await app.linkCache.find(slug);
  if (!found || isDynamicOnly(found.link)) return undefined;
  const url = linkPublicUrl(app, found.link.slug);
  const size = format === 'png' ? QR_PNG_WIDTH : 0;
  const key = `${format}\n${size}\n${url}\n${found.link.id}\n${found.link.updatedAt.getTime()}`;
  const etag = `"qr-${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`;
  return { url, format, key, etag };
}

/**
 * A checkout's QR Ph code (a local method's attempt waiting to be scanned), drawn like a link's:
 * the payment page shows it and offers it for download. Undefined when none is waiting.
 */
export function checkoutQrCode(content: string, format: QrFormat): QrCode {
  const size = format === 'png' ? QR_PNG_WIDTH : 0;
  const key = `${format}\n${size}\ncheckout\n${content}`;
  return { url: content, format, key, etag: `"qr-${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"` };
}

/** The kept drawing of `code`, or undefined when it has to be drawn. */
export const keptQrImage = (app: Pick<DomainContext, 'qrCache'>, code: QrCode): QrImage | undefined => app.qrCache.find(code.key);

/** Draws `code` and keeps the drawing. */
export async function drawQrImage(app: Pick<DomainContext, 'qrCache'>, code: QrCode): Promise<QrImage> {
  const body =
    code.format === 'svg'
      ? new TextEncoder().encode(await QRCode.toString(code.url, { ...QR_OPTIONS, type: 'svg' }))
      : Uint8Array.from(await QRCode.toBuffer(code.url, { ...QR_OPTIONS, type: 'png', width: QR_PNG_WIDTH }));
  const image = { body, etag: code.etag };
  app.qrCache.keep(code.key, image);
  return image;
}
