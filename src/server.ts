/**
 * The paylink process: one HTTP server (Astro pages and API, static assets, /healthz) plus the
 * background workers, with graceful shutdown on SIGTERM/SIGINT. `--worker` runs the workers
 * alone (scaled out against PostgreSQL). Built to dist/paylink/server.mjs by scripts/build.mjs.
 */
import { fileURLToPath } from 'node:url';
import { createApp, type PaylinkApp } from './app.ts';
import { loadConfigOrFail } from './config.ts';
import { makeDataDirPrivate } from './data-dir.ts';
import { DataDirLockedError } from './db/lock.ts';
import { MasterKeyError } from './db/master-key.ts';
import { generatedSecretsBanner } from './domain/integrators/generated-secrets.ts';
import { existingProvisioning } from './domain/integrators/holdings.ts';
import { applyProvisioning, ProvisioningError, type ProvisioningResult } from './domain/integrators/provisioning.ts';
import { issueSetupLink } from './domain/operators/accounts.ts';
import { startBackupSocket } from './http/backup-socket.ts';
import { Metrics, parseListenAddress, startMetricsServer } from './http/metrics.ts';
import { Readiness } from './http/readiness.ts';
import { type AstroHandler, closeServer, createHttpServer, listen } from './http/server.ts';
import { startHealthServer } from './http/worker-health.ts';
import { startIdleCollection } from './idle-memory.ts';
import { startTracing } from './telemetry.ts';
import { startWorkers } from './workers/index.ts';

function fail(message: string): never {
  process.stderr.write(`\n${message}\n\n`);
  process.exit(1);
}

function banner(
  app: PaylinkApp,
  provisioning: ProvisioningResult,
  workerOnly: boolean,
  metricsPort: number | undefined,
  healthPort: number | undefined,
  operatorSetup: string | undefined,
) {
  const origin = app.origin();
  const lines = [
    '',
    workerOnly ? '  paylink worker is running' : `  paylink is running at ${origin}`,
    `  database:     ${app.database.kind === 'pglite' ? `embedded PGlite in ${app.config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
  ];
  if (!workerOnly) {
    lines.push(
      `  listening on: ${app.config.host}:${app.boundPort ?? app.config.port}`,
      `  health:       ${origin}/healthz (alive), ${origin}/readyz (ready for traffic)`,
      `  console:      ${origin}/console`,
      `  operator:     ${origin}/operator`,
    );
  }
  if (healthPort !== undefined)
    lines.push(`  health:       http://${parseListenAddress(app.config.healthListen!).host}:${healthPort}/healthz (PAYLINK_HEALTH_LISTEN)`);
  if (operatorSetup) lines.push(`  operator setup (one-time link, no operator yet): ${operatorSetup}`);
  if (metricsPort !== undefined) lines.push(`  metrics:      http://${parseListenAddress(app.config.metricsListen!).host}:${metricsPort}/metrics`);
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  const counts = [count(provisioning.integrators, 'integrator'), count(provisioning.links, 'link'), count(provisioning.cards, 'card')].join(', ');
  if (provisioning.demo) {
    lines.push(
      `  demo link:    ${provisioning.demo.linkUrl}`,
      `  credentials:  written to ${provisioning.demo.path} (console and operator sign-in, API token, JWT secret, webhook secret)`,
    );
  } else if (app.config.seedPath && !workerOnly) {
    lines.push(`  provisioning: ${app.config.seedPath} applied (${counts})`);
  } else {
    lines.push(`  provisioning: ${counts} in the database`);
    if (provisioning.demoKept)
      lines.push(`  demo link:    ${origin}/pay/demo (console sign-in and API credentials in ${app.config.dataDir}/demo-credentials.json)`);
  }
  if (provisioning.generatedSecrets) lines.push(...generatedSecretsBanner(provisioning.generatedSecrets));
  if (app.masterKeyInfo.source === 'generated') lines.push(`  master key:   generated at ${app.masterKeyInfo.path} (back it up: secrets at rest need it)`);
  lines.push('  stop with Ctrl+C', '');
  process.stdout.write(`${lines.join('\n')}\n`);
}

export async function main(argv = process.argv.slice(2)) {
  const workerOnly = argv.includes('--worker');
  const config = loadConfigOrFail(fail);
  if (workerOnly && !config.databaseUrl)
    fail('`npm run worker` runs the workers as their own process and needs DATABASE_URL (PostgreSQL); the embedded database is used by one process only.');

  let app: PaylinkApp;
  try {
    makeDataDirPrivate(config.dataDir);
    app = await createApp({
      config,
      database: {
        migrationsFolder: fileURLToPath(new URL('../drizzle/', import.meta.url)),
        // Written by the build next to this file (scripts/build.mjs): a first start skips initdb.
        pgliteTemplate: fileURLToPath(new URL('./pglite-template.tar.gz', import.meta.url)),
      },
    });
  } catch (error) {
    if (error instanceof DataDirLockedError || error instanceof MasterKeyError) fail(error.message);
    fail(`paylink cannot open its database: ${(error as Error).message}`);
  }

  // OpenTelemetry only when the operator set its variables (docs/deploy.md, "Traces").
  app.tracing = await startTracing().catch((error: unknown) => {
    app.log.warn('traces off: the OpenTelemetry exporter could not start', { error });
    return undefined;
  });

  // Migrations ran in createApp; until provisioning and the workers are done too, requests get 503.
  const readiness = new Readiness();
  readiness.done('migrations');
  let server: ReturnType<typeof createHttpServer> | undefined;
  if (!workerOnly) {
    const entry = new URL('../server/entry.mjs', import.meta.url);
    const { handler } = (await import(entry.href)) as { handler: AstroHandler };
    server = createHttpServer(app, { astroHandler: handler, clientDir: fileURLToPath(new URL('../client/', import.meta.url)), readiness });
    try {
      app.boundPort = await listen(server, config.host, config.port);
    } catch (error) {
      await app.database.close();
      fail(`paylink cannot listen on ${config.host}:${config.port}: ${(error as Error).message}. Set PORT (or HOST) to a free address.`);
    }
  }

  let provisioning: ProvisioningResult;
  try {
    provisioning = workerOnly ? await existingProvisioning(app) : await applyProvisioning(app);
  } catch (error) {
    if (server) await closeServer(server, 0);
    await app.database.close();
    if (error instanceof ProvisioningError) fail(error.message);
    throw error;
  }

  let metricsServer: Awaited<ReturnType<typeof startMetricsServer>> | undefined;
  if (config.metricsListen) {
    const metrics = new Metrics(app);
    app.observeRequest = (method, route, status, seconds) => metrics.observeRequest(method, route, status, seconds);
    try {
      metricsServer = await startMetricsServer(app, metrics, parseListenAddress(config.metricsListen));
    } catch (error) {
      if (server) await closeServer(server, 0);
      await app.database.close();
      fail(`paylink cannot listen for metrics on ${config.metricsListen} (PAYLINK_METRICS_LISTEN): ${(error as Error).message}`);
    }
  }

  // The embedded database: `npm run admin -- backup` asks this process over a local socket.
  const backupSocket = await startBackupSocket(app.database, config.dataDir, app.log.child({ component: 'backup' })).catch((error: Error) => {
    app.log.warn('backup socket not started; `admin backup` needs paylink stopped', { error });
    return undefined;
  });

  // No operator yet: a one-time setup link for the first one, printed in the banner (no e-mail server needed).
  const operatorSetup = workerOnly ? undefined : (await issueSetupLink(app))?.url;
  readiness.done('provisioning', workerOnly ? 'not_in_this_process' : 'ok');
  const workers = config.runWorkers || workerOnly ? startWorkers(app) : undefined;
  readiness.done('workers', workers ? 'ok' : 'not_in_this_process');
  let stopping = false;
  let healthServer: Awaited<ReturnType<typeof startHealthServer>> | undefined;
  if (config.healthListen) {
    try {
      healthServer = await startHealthServer(app, parseListenAddress(config.healthListen), () => ({ workers, stopping }));
    } catch (error) {
      await workers?.stop();
      if (server) await closeServer(server, 0);
      if (metricsServer) await closeServer(metricsServer.server, 0);
      await app.database.close();
      fail(`paylink cannot listen for its health check on ${config.healthListen} (PAYLINK_HEALTH_LISTEN): ${(error as Error).message}`);
    }
  }
  // Memory a burst of work left behind, given back once the process is idle (src/idle-memory.ts).
  const stopIdleCollection = startIdleCollection(app.log.child({ component: 'memory' }));

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info('shutting down', { signal });
    readiness.drain();
    stopIdleCollection?.();
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 5_000);
    force.unref();
    if (server) await closeServer(server, config.shutdownTimeoutMs);
    if (metricsServer) await closeServer(metricsServer.server, 1_000);
    if (backupSocket) await closeServer(backupSocket, 1_000);
    await workers?.stop();
    if (healthServer) await closeServer(healthServer.server, 1_000);
    await app.database.close();
    await app.tracing?.shutdown().catch(() => {});
    app.log.info('stopped');
    await app.log.flush();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // Only now: whoever reads "running" may signal at once, and must get the graceful shutdown.
  banner(app, provisioning, workerOnly, metricsServer?.port, healthServer?.port, operatorSetup);
}

await main();
