import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configSchema } from '../../src/config.ts';

/**
 * compose.yaml, the Dockerfile and docs/deploy.md name paylink's settings as src/config.ts knows
 * them: a misspelt or retired name there would be ignored by paylink without a word.
 */
const known = new Set(Object.keys(configSchema.shape));

/** Names the deployment files may use that are not paylink settings, each with why. */
const notSettings: Record<string, string> = {
  NODE_ENV: 'read by the dependencies (the image sets production)',
  PAYLINK_NEW_MASTER_KEY: 'read by `npm run admin -- rotate-master-key` only',
  PAYLINK_DOMAIN: "compose.yaml's own: the Caddy site and PUBLIC_URL's host",
  MALLOC_ARENA_MAX: "glibc's, set by the start script",
  OTEL_EXPORTER_OTLP_ENDPOINT: "OpenTelemetry's own, read by src/telemetry.ts and the exporter",
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "OpenTelemetry's own, read by src/telemetry.ts and the exporter",
  OTEL_TRACES_EXPORTER: "OpenTelemetry's own, read by src/telemetry.ts",
  OTEL_SDK_DISABLED: "OpenTelemetry's own, read by src/telemetry.ts",
  OTEL_SERVICE_NAME: "OpenTelemetry's own, read by src/telemetry.ts",
  OTEL_EXPORTER_OTLP_HEADERS: "OpenTelemetry's own, read by the exporter",
  OTEL_EXPORTER_OTLP_TIMEOUT: "OpenTelemetry's own, read by the exporter",
  MALLOC_MMAP_THRESHOLD_: "glibc's, set by the start script",
  MALLOC_TRIM_THRESHOLD_: "glibc's, set by the start script",
};
const isBenchSetting = (name: string) => name.startsWith('PAYLINK_BENCH_');

interface ComposeService {
  build?: unknown;
  image?: string;
  environment?: Record<string, string>;
}
const compose = parse(readFileSync('compose.yaml', 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
const paylinkServices = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);
/** `${NAME}`, `${NAME:-default}`, `${NAME:?message}`: what compose reads from .env. */
const interpolated = (text: string) => new Set([...text.matchAll(/\$\{([A-Z_][A-Z0-9_]*)[:}]/g)].map((m) => m[1]!));

describe('deployment files › settings', () => {
  it('compose.yaml runs two web processes, a worker, PostgreSQL and Caddy', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['caddy', 'db', 'web1', 'web2', 'worker']);
    expect(paylinkServices.map(([name]) => name).sort()).toEqual(['web1', 'web2', 'worker']);
    expect(compose.services.worker).toMatchObject({ command: ['--worker'] });
    expect(compose.services.caddy!.image).toMatch(/^caddy:/);
    expect(compose.services.db!.image).toMatch(/^postgres:/);
  });

  it("gives paylink's processes only settings src/config.ts knows", () => {
    for (const [name, service] of paylinkServices) {
      const unknown = Object.keys(service.environment ?? {}).filter((key) => !known.has(key));
      expect(unknown, name).toEqual([]);
      expect(service.environment?.DATABASE_URL, name).toMatch(/^postgres:\/\//);
      expect(service.environment?.PAYLINK_MASTER_KEY, name).toMatch(/^\$\{PAYLINK_MASTER_KEY:\?/);
    }
    expect(compose.services.web1!.environment?.PAYLINK_WORKERS).toBe('0');
    expect(compose.services.worker!.environment?.PAYLINK_HEALTH_LISTEN).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it('sets in the Dockerfile only settings src/config.ts knows', () => {
    const names = [...readFileSync('Dockerfile', 'utf8').matchAll(/^ENV ([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => !known.has(name) && !(name in notSettings))).toEqual([]);
  });

  it('names in docs/deploy.md only settings src/config.ts knows (or says what else they are)', () => {
    const doc = readFileSync('docs/deploy.md', 'utf8');
    const names = new Set(
      [...doc.matchAll(/\b(PAYLINK_[A-Z0-9_]+|DATABASE_[A-Z0-9_]+|SMTP_[A-Z0-9_]+|MAIL_[A-Z0-9_]+|PUBLIC_URL|LOG_LEVEL|MALLOC_[A-Z0-9_]+)\b/g)].map(
        (m) => m[1]!,
      ),
    );
    expect([...names].filter((name) => !known.has(name) && !(name in notSettings) && !isBenchSetting(name))).toEqual([]);
  });

  it('documents every variable compose.yaml reads from .env, and .env.example lists each of them', () => {
    const fromEnv = interpolated(readFileSync('compose.yaml', 'utf8'));
    expect([...fromEnv].sort()).toEqual(['MAIL_FROM', 'PAYLINK_DOMAIN', 'PAYLINK_MASTER_KEY', 'POSTGRES_PASSWORD', 'SMTP_URL']);
    const doc = readFileSync('docs/deploy.md', 'utf8');
    expect([...fromEnv].filter((name) => !doc.includes(`\`${name}\``))).toEqual([]);
    const example = new Set([...readFileSync('.env.example', 'utf8').matchAll(/^([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]!));
    expect([...example].sort()).toEqual([...fromEnv].sort());
  });

  it('points Caddy at the web processes of compose.yaml, with their readiness as its health check', () => {
    const caddyfile = readFileSync('Caddyfile', 'utf8');
    const upstreams = /reverse_proxy ([^{]+)\{/.exec(caddyfile)![1]!.trim().split(/\s+/);
    expect(upstreams).toEqual(['web1:4321', 'web2:4321']);
    expect(caddyfile).toContain('health_uri /readyz');
    expect(caddyfile).toContain('{$PAYLINK_DOMAIN}');
  });
});
