import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** README.md and docs/ stand on their own: a clone has nothing outside the repository to point at. */
const root = resolve(import.meta.dirname, '../..');
const documents = ['README.md', 'clients/typescript/README.md', ...readdirSync(join(root, 'docs')).map((name) => `docs/${name}`)].filter((f) =>
  f.endsWith('.md'),
);
const LOCAL = /^https?:\/\/(127\.0\.0\.1|localhost)([:/]|$)/;

function targets(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/\]\(([^)\s]+)\)|<(https?:[^>\s]+)>|\b(https?:\/\/[^\s)`'"<>]+)/g)].map((m) => (m[1] ?? m[2] ?? m[3])!);
}

describe('docs › README and docs/ stand on their own', () => {
  it('reads every document', () => {
    expect(documents).toEqual(expect.arrayContaining(['README.md', 'docs/api.md', 'docs/interface.md', 'docs/status-codes.md']));
  });

  it('links nowhere outside the repository (local addresses of paylink itself aside)', () => {
    const outside = documents.flatMap((file) =>
      targets(file)
        .filter((t) => /^[a-z]+:/i.test(t) && !LOCAL.test(t) && !/^https?:\/\/[^/]*\.(example|invalid|test)([:/]|$)/.test(t))
        .map((t) => `${file} → ${t}`),
    );
    // Documentation addresses (example.com, *.example, 10.0.0.5 …) are examples, not links.
    expect(outside.filter((t) => !/example\.com|10\.0\.0\.5|a:99999|256\.256\.256\.256|HOST:PORT/.test(t))).toEqual([]);
  });

  it('every relative link names a file inside the repository that exists', () => {
    const broken = documents.flatMap((file) =>
      targets(file)
        .filter((t) => !/^[a-z]+:/i.test(t) && !t.startsWith('#'))
        .filter((t) => {
          const path = resolve(dirname(join(root, file)), t.split('#')[0]!);
          return relative(root, path).startsWith('..') || !existsSync(path);
        })
        .map((t) => `${file} → ${t}`),
    );
    expect(broken).toEqual([]);
  });

  it('names no file of the outside specification', () => {
    for (const file of documents) expect(readFileSync(join(root, file), 'utf8'), file).not.toMatch(/\.\.\/shared|spec\/interface\.md/);
  });
});

describe('docs › the code says why, the docs keep the figures', () => {
  const sources = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? sources(`${dir}/${entry.name}`) : /\.(ts|tsx|astro|mjs)$/.test(entry.name) ? [`${dir}/${entry.name}`] : [],
    );

  it('no source file carries a timing in microseconds or an issue number', () => {
    const found = sources('src').flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\d\s*µs\b|\bissue #?\d+/i.test(line) ? [`${file}:${i + 1}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
