import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compareWithCatalogue } from '../../scripts/status-codes-seen.mjs';
import { catalogue } from '../../src/status-codes.ts';

const dirs: string[] = [];
const seenIn = (...files: string[]) => {
  const dir = mkdtempSync(join(tmpdir(), 'paylink-codes-'));
  dirs.push(dir);
  for (const [i, text] of files.entries()) writeFileSync(join(dir, `${1000 + i}.txt`), text);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('status-code catalogue against the codes tests saw', () => {
  it('passes when the test processes together saw every catalogue code', () => {
    const codes = Object.keys(catalogue);
    const half = Math.floor(codes.length / 2);
    const result = compareWithCatalogue(seenIn(`${codes.slice(0, half).join('\n')}\n`, `${codes.slice(half).join('\n')}\n`), codes);
    expect(result.unseen).toEqual([]);
    expect(result.unknown).toEqual([]);
    expect(result.seen.size).toBe(codes.length);
  });

  it('names a catalogue code no test produced, and a code the catalogue does not list', () => {
    const result = compareWithCatalogue(seenIn('OK.00.00\nER.02.30\n', 'ER.77.77\nOK.00.00\n'), ['OK.00.00', 'ER.02.30', 'ER.99.01']);
    expect(result.unseen).toEqual(['ER.99.01']);
    expect(result.unknown).toEqual(['ER.77.77']);
  });

  it('counts nothing as seen when no test wrote anything', () => {
    expect(compareWithCatalogue(join(tmpdir(), 'paylink-codes-none-here'), ['OK.00.00']).unseen).toEqual(['OK.00.00']);
  });
});
