// Stryker's build step (stryker.config.mjs `buildCommand`), run inside its sandbox: the HTTP
// tests serve the Astro build, which bundles src/, so the build must be made from the
// instrumented sources for a mutant to be live behind the pages and API routes. Stryker links
// node_modules into the sandbox only after this step, so it is linked here first.
import { existsSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';

const sandbox = process.cwd();
if (!existsSync(join(sandbox, 'node_modules'))) symlinkSync(resolve(sandbox, '../../../node_modules'), join(sandbox, 'node_modules'), 'dir');
// build.mjs imports esbuild: load it once node_modules is there.
const { buildAll } = await import('./build.mjs');
await buildAll({ quiet: true });
