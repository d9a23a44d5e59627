// The check after a full vitest run (scripts/test.mjs): every code in the status-code catalogue
// was produced by some test, and no test saw a code the catalogue does not list. The codes seen
// are one per line in the files under `dir` (tests/support/status-codes-seen.ts writes them).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @param {string} dir
 * @param {string[]} catalogueCodes
 * @returns {{ seen: Set<string>, unseen: string[], unknown: string[] }}
 */
export function compareWithCatalogue(dir, catalogueCodes) {
  const seen = new Set(
    (existsSync(dir) ? readdirSync(dir) : []).flatMap((file) =>
      readFileSync(join(dir, file), 'utf8')
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    ),
  );
  const known = new Set(catalogueCodes);
  return { seen, unseen: [...known].filter((code) => !seen.has(code)), unknown: [...seen].filter((code) => !known.has(code)) };
}
