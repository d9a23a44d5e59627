/**
 * A Vite plugin for the client build: Vite wraps every dynamic import() in `__vitePreload`, which
 * adds `<link rel=modulepreload>` tags for the imported chunk's own imports and fires
 * `vite:preloadError` on failure. paylink's pages need neither (the one import() a payment page
 * carries is the Preact renderer's `@preact/signals`, for signal props no island takes; nothing
 * listens for the event), yet the helper costs 744 B gzip of the payment page's 12 KB
 * (docs/checkout.md, "JavaScript budget"). This replaces it with a plain call: the import itself
 * still happens, just without the preload. If Vite renames the helper's module, the
 * build stops here instead of silently shipping the old helper.
 */
const HELPER_ID = '\0vite/preload-helper.js';

export function plainDynamicImports() {
  return {
    name: 'paylink-plain-dynamic-imports',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.config.consumer === 'client',
    load: (id) => (id === HELPER_ID ? 'export const __vitePreload = (load) => load();' : undefined),
    generateBundle(_options, bundle) {
      const kept = Object.values(bundle).find((chunk) => chunk.type === 'chunk' && chunk.code.includes('vite:preloadError'));
      if (kept) this.error(`paylink-plain-dynamic-imports: Vite's preload helper is still in ${kept.fileName}; adapt this plugin to the new Vite`);
    },
  };
}
