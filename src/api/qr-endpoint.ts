import type { APIRoute } from 'astro';
import { findCheckoutQrCode } from '../domain/checkout/method-status.ts';
import { drawQrImage, findQrCode, keptQrImage, type QrFormat } from '../domain/links/qr.ts';
import { clientIpOf, errorResponse } from './endpoint.ts';

const contentTypes: Record<QrFormat, string> = { svg: 'image/svg+xml', png: 'image/png' };

/** True when `If-None-Match` names `etag` (or is `*`); weak and strong forms compare alike. */
const matches = (ifNoneMatch: string | null, etag: string) =>
  (ifNoneMatch ?? '')
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');

/**
 * GET /pay/{slug}/qr.svg and qr.png: the link's QR code (src/domain/links/qr.ts); GET
 * /checkout/{token}/qr.svg and qr.png: the QR Ph code the checkout's attempt waits on. A client that
 * has the current code gets 304; a kept drawing is served as it is; only a drawing counts against
 * the client's PAYLINK_LIMIT_QR_RENDERS (429 ER.02.70 over it).
 */
export const qrEndpoint =
  (format: QrFormat, of: 'link' | 'checkout' = 'link'): APIRoute =>
  async ({ params, locals, request, url }) => {
    const app = locals.paylink;
    try {
      const code = of === 'link' ? await findQrCode(app, params.slug ?? '', format) : await findCheckoutQrCode(app, params.token ?? '', format);
      if (!code)
        return new Response(of === 'link' ? 'No payment link with a QR code at this address' : 'No QR code is waiting to be paid at this address', {
          status: 404,
          headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
        });
      const headers: Record<string, string> = {
        'content-type': contentTypes[format],
        // A link's: short, a link switched off stops having a code within the hour. A checkout's
        // QR Ph code changes when renewed: asked again each time (the ETag saves the drawing).
        'cache-control': of === 'link' ? 'public, max-age=3600' : 'private, no-cache',
        etag: code.etag,
        'x-content-type-options': 'nosniff',
        'content-disposition': `inline; filename="${of === 'link' ? params.slug : 'qrph'}-qr.${format}"`,
      };
      if (format === 'svg') headers['content-security-policy'] = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
      if (matches(request.headers.get('if-none-match'), code.etag)) return new Response(null, { status: 304, headers });
      let image = keptQrImage(app, code);
      if (!image) {
        await app.rateLimits.countQrRender(clientIpOf({ locals }));
        image = await drawQrImage(app, code);
      }
      return new Response(image.body, { status: 200, headers });
    } catch (error) {
      return errorResponse(app, error, url.pathname, locals.requestId);
    }
  };
