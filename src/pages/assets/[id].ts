import type { APIRoute } from 'astro';
import { findAsset } from '../../domain/links/assets.ts';
import { isServableLogo } from '../../domain/links/logos.ts';

/**
 * Logos, served from our own origin. Asset ids are random and their bytes never change, so they
 * are cached for a year. An SVG gets its own CSP (no script, no external loads) on top of the
 * sanitising done when it was stored. One stored before today's limits and larger than a logo may
 * be now is not served (404): a page shows no logo rather than megabytes of one.
 */
export const GET: APIRoute = async ({ params, locals }) => {
  const asset = await findAsset(locals.paylink.db, params.id ?? '');
  if (asset && !isServableLogo(asset.bytes)) {
    locals.paylink.log.warn('a stored logo is larger than a logo may be; not served', { asset_id: asset.id, bytes: asset.bytes.length });
  }
  if (!asset || !isServableLogo(asset.bytes))
    return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
  const headers: Record<string, string> = {
    'content-type': asset.contentType,
    'cache-control': 'public, max-age=31536000, immutable',
    etag: `"${asset.sha256}"`,
    'x-content-type-options': 'nosniff',
    'content-disposition': 'inline',
  };
  if (asset.contentType === 'image/svg+xml') headers['content-security-policy'] = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
  return new Response(new Uint8Array(asset.bytes), { status: 200, headers });
};
