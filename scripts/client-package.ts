import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** clients/typescript: the typed client as the package `@paylink/client` (docs/api.md, "The typed client"). */
export const CLIENT_DIR = 'clients/typescript';
const root = fileURLToPath(new URL('..', import.meta.url));
const source = join(root, CLIENT_DIR);

/** paylink's version, which the client package carries too. */
export const paylinkVersion = (): string => (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * Compiles the client with the project's TypeScript into `<into>/dist` (ES2022 JavaScript and .d.ts,
 * beside the generated schema.d.ts), `into` being clients/typescript itself or a directory of its
 * own (a test's, which then gets the package.json and README.md too). The package carries paylink's
 * version: clients/typescript/package.json is set to it when it differs.
 */
export function buildClientPackage(into: string = source): { dir: string; version: string } {
  const dir = resolve(into);
  const version = paylinkVersion();
  const manifestText = readFileSync(join(source, 'package.json'), 'utf8');
  const manifest = JSON.parse(manifestText) as { version: string };
  const wanted = `${JSON.stringify({ ...manifest, version }, null, 2)}\n`;
  mkdirSync(dir, { recursive: true });
  if (dir !== source || wanted !== manifestText) writeFileSync(join(dir, 'package.json'), wanted);
  if (dir !== source) copyFileSync(join(source, 'README.md'), join(dir, 'README.md'));
  const dist = join(dir, 'dist');
  rmSync(dist, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(source, 'tsconfig.json'), '--outDir', dist], { stdio: 'inherit' });
  // tsc copies no .d.ts it was given: the generated types travel beside the client's declarations.
  copyFileSync(join(source, 'schema.d.ts'), join(dist, 'schema.d.ts'));
  // The example is a script to run, not a module to import.
  rmSync(join(dist, 'example.d.ts'), { force: true });
  return { dir, version };
}
