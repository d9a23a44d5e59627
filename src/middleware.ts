import { randomUUID } from 'node:crypto';
import { defineMiddleware } from 'astro:middleware';
import type { PaylinkApp } from './app.ts';

/**
 * src/server.ts passes the process's PaylinkApp and a request id as locals. Under `astro dev`
 * there is no server.ts, so the app is built here once, lazily.
 */
let devApp: Promise<PaylinkApp> | undefined;

async function buildDevApp(): Promise<PaylinkApp> {
  const { loadConfig } = await import('./config.ts');
  const { createApp } = await import('./app.ts');
  const { applyProvisioning } = await import('./domain/integrators/provisioning.ts');
  const app = await createApp({ config: loadConfig() });
  await applyProvisioning(app);
  return app;
}

export const onRequest = defineMiddleware(async (context, next) => {
  context.locals.requestId ??= `req_${randomUUID().replaceAll('-', '')}`;
  if (!context.locals.paylink) {
    devApp ??= buildDevApp();
    context.locals.paylink = await devApp;
  }
  return next();
});
