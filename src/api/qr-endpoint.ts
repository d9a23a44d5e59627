import type { APIRoute } from 'astro';
import { linkQrCode, type QrFormat } from '../domain/links/qr.ts';

const contentTypes: Record<QrFormat, string> = { svg: 'image/svg+xml', png: 'image/png' };

/** GET /pay/{slug}/qr.svg and qr.png: the link's QR code (src/domain/links/qr.ts). */
export const qrEndpoint =
  (format: QrFormat): APIRoute =>
  async ({ params, locals }) => {
    const qr = await linkQrCode(locals.paylink, params.slug ?? '', format);
    if (!qr)
      return new Response('No payment link with a QR code at this address', {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
      });
    const headers: Record<string, string> = {
      'content-type': contentTypes[format],
      // Short: a link switched off stops having a code within the hour.
      'cache-control': 'public, max-age=3600',
      'x-content-type-options': 'nosniff',
      'content-disposition': `inline; filename="${params.slug}-qr.${format}"`,
    };
    if (format === 'svg') headers['content-security-policy'] = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
    return new Response(qr.body, { status: 200, headers });
  };
