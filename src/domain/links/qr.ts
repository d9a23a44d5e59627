import QRCode from 'qrcode';
import type { PaylinkApp } from '../../app.ts';
import { isDynamicOnly } from './form.ts';
import { findActiveLink } from './service.ts';

/**
 * A static link's QR code, for printing at a counter: it encodes the link's full public address
 * (app.origin() + /pay/{slug}). Unknown, inactive and dynamic-only links have none (a customer
 * scanning it could not pay). An expired or used-up link keeps its code: the page it opens says
 * why it cannot be paid. Reads only; nothing is stored.
 */
export type QrFormat = 'svg' | 'png';

/** Error correction M (15%): survives a crease or a smudge on a printed code. */
const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 2 } as const;
/** PNG side in pixels: sharp when printed at 5 cm (250 dpi). */
export const QR_PNG_WIDTH = 512;

export const linkPublicUrl = (app: PaylinkApp, slug: string) => `${app.origin()}/pay/${slug}`;

export async function linkQrCode(
  app: PaylinkApp,
  slug: string,
  format: QrFormat,
): Promise<{ url: string; body: string | Uint8Array<ArrayBuffer> } | undefined> {
  const found = await findActiveLink(app.db, slug);
  if (!found || isDynamicOnly(found.link)) return undefined;
  const url = linkPublicUrl(app, found.link.slug);
  if (format === 'svg') return { url, body: await QRCode.toString(url, { ...QR_OPTIONS, type: 'svg' }) };
  return { url, body: Uint8Array.from(await QRCode.toBuffer(url, { ...QR_OPTIONS, type: 'png', width: QR_PNG_WIDTH })) };
}
