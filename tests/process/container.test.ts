import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { payOverHttp, transactionOverHttp } from '../support/http-payment.ts';
import { startPaylink } from '../support/process.ts';

/**
 * The Dockerfile's runtime stage, run outside a container (no container runtime runs here): its
 * COPY, ENV and RUN lines in order, in a temporary directory standing for /app. The build stage's
 * output is this checkout's build (`npm run build`, as that stage runs it).
 */
interface RuntimeStage {
  steps: Array<{ kind: 'COPY' | 'RUN' | 'ENV'; args: string }>;
  healthcheck: string[];
  entrypoint: string[];
}

function runtimeStage(): RuntimeStage {
  const lines = readFileSync('Dockerfile', 'utf8').split('\n');
  const start = lines.findIndex((l) => /^FROM \S+ AS runtime$/.test(l));
  expect(start, 'the Dockerfile has a runtime stage').toBeGreaterThan(0);
  const stage: RuntimeStage = { steps: [], healthcheck: [], entrypoint: [] };
  for (const line of lines.slice(start + 1)) {
    const [instruction, ...rest] = line.split(' ');
    const args = rest.join(' ');
    if (instruction === 'COPY' || instruction === 'RUN' || instruction === 'ENV') stage.steps.push({ kind: instruction, args });
    else if (instruction === 'HEALTHCHECK') stage.healthcheck = JSON.parse(args.slice(args.indexOf('CMD ') + 4));
    else if (instruction === 'ENTRYPOINT') stage.entrypoint = JSON.parse(args);
  }
  return stage;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the container image, its steps run outside a container', () => {
  it('installs production dependencies only, starts bin/paylink on an empty data directory, passes its HEALTHCHECK, takes a sandbox payment; npm start works there too', {
    timeout: 300_000,
  }, async () => {
    expect(existsSync('dist/paylink/server.mjs'), 'run `npm run build` first: the build stage').toBe(true);
    const root = mkdtempSync(join(tmpdir(), 'paylink-image-'));
    dirs.push(root);
    const app = join(root, 'app');
    mkdirSync(app);
    const stage = runtimeStage();
    const env: Record<string, string> = {};
    const skipped: string[] = [];
    let installed = '';
    for (const { kind, args } of stage.steps) {
      if (kind === 'ENV') {
        const [name, value] = args.split('=') as [string, string];
        env[name] = value;
      } else if (kind === 'COPY') {
        const parts = args.split(' ');
        const target = join(app, parts.at(-1)!.replace(/^\.\/?/, ''));
        if (parts[0] === '--from=build') cpSync(join(process.cwd(), parts[1]!.replace(/^\/app\//, '')), target, { recursive: true, dereference: true });
        else for (const source of parts.slice(0, -1)) cpSync(source, parts.length > 2 ? join(target, source) : target, { recursive: true });
      } else if (/^(npm|touch) /.test(args)) {
        // The install as written, from the local npm cache where it can (what is installed is the
        // same), and without emptying that cache: it is this machine's, not an image layer's.
        const command = args.replace(/npm ci /, 'npm ci --prefer-offline ').replace(' && npm cache clean --force', '');
        const ran = spawnSync('sh', ['-c', command], { cwd: app, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } });
        expect(ran.status, `${args}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
        installed += ran.stdout;
      } else skipped.push(args);
    }
    // Only the non-root user's creation is left to the container build.
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatch(/^groupadd --system paylink && useradd --system/);

    // Nothing of the development tools: no test runners, browsers, mutation testing, linters, build tools.
    const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as { devDependencies: Record<string, string> };
    for (const tool of [
      'vitest',
      '@playwright/test',
      '@stryker-mutator/core',
      '@biomejs/biome',
      'knip',
      'drizzle-kit',
      'typescript',
      'autocannon',
      'fast-check',
    ])
      expect(packageJson.devDependencies[tool], tool).toBeDefined();
    const present = [
      'vitest',
      '@playwright/test',
      '@stryker-mutator/core',
      '@biomejs/biome',
      'knip',
      'drizzle-kit',
      'typescript',
      'autocannon',
      'fast-check',
    ].filter((tool) => existsSync(join(app, 'node_modules', tool)));
    expect(present).toEqual([]);
    const added = Number(/added (\d+) packages/.exec(installed)?.[1] ?? Number.NaN);
    expect(added).toBeLessThan(420);
    expect(readdirSync(join(app, 'dist'))).toEqual(expect.arrayContaining(['client', 'drizzle', 'paylink', 'server']));

    const dataDir = join(root, 'volume');
    const entry = join(app, stage.entrypoint[0]!.replace(/^\/app\//, ''));
    const p = startPaylink({ ...env, PAYLINK_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0' }, stage.entrypoint.slice(1), [], entry);
    try {
      const base = await p.ready;
      const port = new URL(base).port;
      const [command, ...healthArgs] = stage.healthcheck;
      expect(command).toBe('node');
      const health = spawnSync(join(app, 'node_modules', '.bin', 'node'), healthArgs, { env: { PORT: port }, encoding: 'utf8' });
      expect(health.status, health.stderr).toBe(0);
      const demo = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as { token: string; link: string };
      const id = await payOverHttp(base, { token: demo.token, slug: demo.link, reference: 'image-1' });
      expect((await transactionOverHttp(base, demo.token, id)).transaction?.status).toBe('succeeded');
    } finally {
      p.child.kill('SIGTERM');
    }
    expect(await p.exited).toBe(0);

    // `npm start` from the same production install starts the copied build too (it does not build).
    const npmStart = startPaylink({ ...env, PAYLINK_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0' }, [], ['--prefix', app, 'start'], 'npm');
    try {
      const base = await npmStart.ready;
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      expect(npmStart.output()).not.toContain('building');
    } finally {
      npmStart.child.kill('SIGTERM');
    }
    expect(await npmStart.exited).toBe(0);
  });
});
