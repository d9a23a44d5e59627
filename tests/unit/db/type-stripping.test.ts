import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * Some TypeScript runs on Node itself, not through vitest's or Astro's compilers: the build
 * prepares the PGlite template with `node scripts/pglite-template.ts`, `npm test` imports the
 * status-code catalogue, and the npm scripts run the generators. Node only strips types: a
 * construct it cannot strip (a parameter property, an enum, a namespace) passes every vitest test
 * and breaks the build on a clean clone. Each such module graph is loaded here by plain Node.
 */
const LOADED_BY_NODE = [
  'src/db/pglite.ts', // scripts/pglite-template.ts (the build)
  'src/status-codes.ts', // scripts/test.mjs (npm test)
  'src/api/catalogue-doc.ts', // scripts/gen-status-codes.ts
  'scripts/client-schema.ts', // scripts/generate-client.ts
];

describe('TypeScript that Node runs itself', () => {
  it.each(LOADED_BY_NODE)(
    '%s loads with Node’s type stripping alone',
    (file) => {
      const loaded = spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(`./${file}`)})`], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(loaded.stderr, loaded.stderr).not.toMatch(/ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX|SyntaxError/);
      expect(loaded.status, loaded.stderr).toBe(0);
    },
    60_000,
  );
});
