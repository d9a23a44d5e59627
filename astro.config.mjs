import node from '@astrojs/node';
import preact from '@astrojs/preact';
import { defineConfig } from 'astro/config';
import { cspDigestMemo } from './scripts/astro-csp-digests.mjs';
import { plainDynamicImports } from './scripts/vite-preload-helper.mjs';

// Built in middleware mode: src/server.ts owns the HTTP server (compression, headers, static
// files, health, workers) and hands every other request to Astro.
export default defineConfig({
  output: 'server',
  // scripts/build.mjs builds into its own folder and points `dist` at it.
  outDir: process.env.PAYLINK_BUILD_OUT ?? './dist',
  adapter: node({ mode: 'middleware', bodySizeLimit: 1024 * 1024 }),
  integrations: [preact()],
  trailingSlash: 'ignore',
  build: { inlineStylesheets: 'never' },
  security: {
    // Off: integrators POST JSON server-to-server without an Origin (spec §4, Content-Type
    // optional). Browser endpoints only take JSON (415 otherwise), which forms cannot send.
    checkOrigin: false,
    csp: {
      algorithm: 'SHA-256',
      directives: ["default-src 'none'", "img-src 'self' data:", "font-src 'self'", "connect-src 'self'", "form-action 'self'", "base-uri 'none'"],
    },
  },
  server: { host: '127.0.0.1', port: 4321 },
  devToolbar: { enabled: false },
  vite: { plugins: [cspDigestMemo(), plainDynamicImports()] },
  markdown: { syntaxHighlight: false },
});
