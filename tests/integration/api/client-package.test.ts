import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClientPackage, CLIENT_DIR, paylinkVersion } from '../../../scripts/client-package.ts';
import { TEST_SECRET, TEST_TOKEN, useServedApp } from '../../support/app.ts';

/**
 * `@paylink/client` as an integrator gets it: compiled, packed by npm, installed from the tarball
 * into a project of its own, imported and run against a live paylink with the machine's own Node
 * (an older LTS than the Node 24 paylink needs, where there is one: PAYLINK_CLIENT_NODE, else
 * /usr/bin/node) and type-checked as a consumer's code.
 */
const served = useServedApp();
const systemNode = [process.env.PAYLINK_CLIENT_NODE, '/usr/bin/node'].find((path) => path && existsSync(path)) ?? process.execPath;
const work = mkdtempSync(join(tmpdir(), 'paylink-client-package-'));
const app = join(work, 'app');
let tarballFiles: string[] = [];

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env }, stdio: 'pipe' });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

beforeAll(async () => {
  const { dir } = buildClientPackage(join(work, 'package'));
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: dir, encoding: 'utf8' })) as [
    { filename: string; files: { path: string }[] },
  ];
  tarballFiles = packed[0].files.map((f) => f.path).sort();
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'shop', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(work, packed[0].filename)], { cwd: app, stdio: 'pipe' });
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('typed client › the @paylink/client package', () => {
  it('carries paylink’s version, and its tarball holds only dist, README.md and package.json', () => {
    const manifest = JSON.parse(readFileSync(join(CLIENT_DIR, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: '@paylink/client', version: paylinkVersion(), type: 'module', engines: { node: '>=18' } });
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(tarballFiles).toEqual(['README.md', 'dist/client.d.ts', 'dist/client.js', 'dist/example.js', 'dist/schema.d.ts', 'package.json']);
  });

  it('imports from the installed tarball and calls paylink with the machine’s own Node', async () => {
    writeFileSync(
      join(app, 'call.mjs'),
      `import { createPaylinkClient, statusCodeOf } from '@paylink/client';
const paylink = createPaylinkClient({ baseUrl: process.env.PAYLINK_URL, token: process.env.PAYLINK_TOKEN });
const ping = await paylink.GET('/api/v1/ping');
const link = await paylink.GET('/api/v1/links/{slug}', { params: { path: { slug: 'acme-books' } } });
const missing = await paylink.GET('/api/v1/transactions/{transaction_id}', { params: { path: { transaction_id: 'txn_0000' } } });
const stranger = await createPaylinkClient({ baseUrl: process.env.PAYLINK_URL, token: 'wrong' }).GET('/api/v1/integrator');
console.log(JSON.stringify({
  node: process.version,
  ping: [ping.response.status, statusCodeOf(ping)],
  link: [link.response.status, link.data?.data.link.amount],
  missing: [missing.response.status, statusCodeOf(missing), missing.data === undefined],
  stranger: [stranger.response.status, statusCodeOf(stranger)],
}));
`,
    );
    const { code, out } = await run(systemNode, ['call.mjs'], app, { PAYLINK_URL: served.server.url, PAYLINK_TOKEN: TEST_TOKEN });
    expect(code, out).toBe(0);
    const result = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(result).toMatchObject({
      ping: [200, 'OK.00.00'],
      link: [200, '250.00'],
      missing: [404, expect.stringMatching(/^ER\./), true],
      stranger: [401, 'ER.01.00'],
    });
  });

  it('its example runs from the package and leaves nothing behind: the rest refunded, the link off, the card deleted', async () => {
    const example = join(app, 'node_modules/@paylink/client/dist/example.js');
    const { code, out } = await run(systemNode, [example], app, {
      PAYLINK_URL: served.server.url,
      PAYLINK_TOKEN: TEST_TOKEN,
      PAYLINK_JWT_SECRET: TEST_SECRET,
      PAYLINK_LINK: 'acme-books',
    });
    expect(code, out).toBe(0);
    for (const step of ['payment: OK.03.00', 'partial refund: OK.04.00', 'cancel schedule: OK.12.20', 'link deactivated: OK.00.00', 'card deleted: OK.11.20']) {
      expect(out).toContain(step);
    }
    expect(out).toMatch(/refund of the rest: OK\.0[24]\.00/);
    const transaction = /done: transaction (txn_[0-9a-f]+), card (\S+), schedule/.exec(out);
    expect(transaction, out).not.toBeNull();
    const api = (path: string) => fetch(`${served.server.url}${path}`, { headers: { authorization: TEST_TOKEN } }).then((r) => r.json());
    expect((await api(`/api/v1/transactions/${transaction![1]}`)).data.transaction).toMatchObject({ refundable_amount: '0.00', refunded_amount: '250.00' });
    expect((await api(`/api/v1/card-registrations/${transaction![2]}`)).data.card_registration).toMatchObject({ status: 'deleted' });
    const slug = /link (gift-\d+) \(static\)/.exec(out)![1];
    expect((await api(`/api/v1/links/${slug}`)).data.link).toMatchObject({ active: false });
  });

  it('with --keep, leaves what it made as it is', async () => {
    const example = join(app, 'node_modules/@paylink/client/dist/example.js');
    const { code, out } = await run(systemNode, [example, '--keep'], app, {
      PAYLINK_URL: served.server.url,
      PAYLINK_TOKEN: TEST_TOKEN,
      PAYLINK_JWT_SECRET: TEST_SECRET,
      PAYLINK_LINK: 'acme-books',
    });
    expect(code, out).toBe(0);
    expect(out).toContain('kept: the payment, the link and the card stay as they are (--keep)');
    expect(out).not.toContain('card deleted');
    const slug = /link (gift-\d+) \(static\)/.exec(out)![1];
    const link = await fetch(`${served.server.url}/api/v1/links/${slug}`, { headers: { authorization: TEST_TOKEN } }).then((r) => r.json());
    expect(link.data.link).toMatchObject({ active: true });
  });

  it('type-checks a consumer’s code against the installed declarations, and refuses a wrong path or body', () => {
    writeFileSync(
      join(app, 'shop.ts'),
      `import { createPaylinkClient, statusCodeOf, type components } from '@paylink/client';
const paylink = createPaylinkClient({ baseUrl: 'http://127.0.0.1:4321', token: 'pl_x' });
export async function refund(transaction_id: string): Promise<string | undefined> {
  const result = await paylink.POST('/api/v1/refund', { body: { transaction_id, notify_user: false, reason: 'Damaged box', amount: '10.00' } });
  return statusCodeOf(result);
}
export async function amountOf(slug: string): Promise<string | null | undefined> {
  const { data } = await paylink.GET('/api/v1/links/{slug}', { params: { path: { slug } } });
  return data?.data.link.amount;
}
export type Transaction = components['schemas']['Transaction'];
`,
    );
    writeFileSync(
      join(app, 'wrong.ts'),
      `import { createPaylinkClient } from '@paylink/client';
const paylink = createPaylinkClient({ baseUrl: 'http://127.0.0.1:4321' });
await paylink.GET('/api/v1/nowhere');
await paylink.POST('/api/v1/refund', { body: { transaction_id: 'txn_1' } });
await paylink.GET('/api/v1/links/{slug}');
`,
    );
    const tsc = join(process.cwd(), 'node_modules/typescript/bin/tsc');
    const options = ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom', '--skipLibCheck', 'false'];
    const clean = spawnSync(process.execPath, [tsc, ...options, 'shop.ts'], { cwd: app, encoding: 'utf8' });
    expect(clean.status, clean.stdout).toBe(0);
    let errors = '';
    try {
      execFileSync(process.execPath, [tsc, ...options, 'wrong.ts'], { cwd: app, encoding: 'utf8' });
    } catch (error) {
      errors = String((error as { stdout?: string }).stdout);
    }
    expect(errors).toMatch(/wrong\.ts\(3,.*'"\/api\/v1\/nowhere"'/);
    expect(errors).toMatch(/wrong\.ts\(4,.*reason/);
    expect(errors).toMatch(/wrong\.ts\(5,/);
  });
});
