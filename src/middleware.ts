import { defineMiddleware } from 'astro:middleware';
import { randomUUID } from 'node:crypto';
import { keepRendered } from './api/page-cache.ts';
import { keptPaymentPage } from './api/payment-pages.ts';
import type { PaylinkApp } from './app.ts';

/**
 * src/server.ts passes the process's PaylinkApp and a request id as locals. Astro re-renders
 * error pages (404/500) with fresh locals, so the HTTP server also registers its app under a
 * global symbol. Under `astro dev` there is no server.ts: the app is built here once, lazily.
 */
let devApp: Promise<PaylinkApp> | undefined;

async function buildDevApp(): Promise<PaylinkApp> {
  const { loadConfig } = await import('./config.ts');
  const { createApp } = await import('./app.ts');
  const { makeDataDirPrivate } = await import('./data-dir.ts');
  const { applyProvisioning } = await import('./domain/integrators/provisioning.ts');
  const config = loadConfig();
  makeDataDirPrivate(config.dataDir);
  const app = await createApp({ config });
  await applyProvisioning(app);
  return app;
}

export const onRequest = defineMiddleware(async (context, next) => {
  context.locals.requestId ??= `req_${randomUUID().replaceAll('-', '')}`;
  if (context.locals.clientIp === undefined) {
    try {
      context.locals.clientIp = context.clientAddress; // `astro dev`; src/server.ts passes its own
    } catch {
      /* no address known */
    }
  }
  if (!context.locals.paylink) {
    const registered = (globalThis as Record<symbol, PaylinkApp | undefined>)[Symbol.for('paylink.app')];
    if (registered) context.locals.paylink = registered;
    else if (import.meta.env.DEV) context.locals.paylink = await (devApp ??= buildDevApp());
    else throw new Error('paylink: no application registered; start paylink with `npm start`');
  }
  context.locals.route = context.routePattern;
  // A payment page whose rendering is kept needs no page run (src/api/payment-pages.ts).
  const kept = await keptPaymentPage(context);
  if (kept) return kept;
  const response = await next();
  // A page rendered once for many views (src/api/page-cache.ts): kept, then filled in.
  if (context.locals.renderOnce) return keepRendered(context.locals.renderOnce, response);
  // Console pages show account data: never kept by a browser or proxy cache.
  if (context.url.pathname === '/console' || context.url.pathname.startsWith('/console/')) response.headers.set('cache-control', 'no-store');
  return response;
});
