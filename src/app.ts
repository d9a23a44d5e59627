import { RateLimiterDrizzle, RateLimiterMemory } from 'rate-limiter-flexible';
import { PaymongoConnector } from './acquirer/paymongo/connector.ts';
import { type AcquirerSettings, ConnectorRegistry } from './acquirer/registry.ts';
import { SandboxAcquirer } from './acquirer/sandbox.ts';
import { SandboxConnector } from './acquirer/sandbox-connector.ts';
import { StripeConnector } from './acquirer/stripe/connector.ts';
import { PageCache } from './api/page-cache.ts';
import { presentEvent } from './api/presenters/events.ts';
import { type LimiterFactory, memoryLimiters, RateLimits } from './api/rate-limits.ts';
import { type Config, publicOrigin } from './config.ts';
import { createFingerprinter, createMac, createSealer, keyPurposes, type MasterKeySource } from './crypto.ts';
import { type Database, type OpenDatabaseOptions, openDatabase } from './db/client.ts';
import { type SettledMasterKey, settleMasterKey } from './db/master-key.ts';
import { rateLimits } from './db/schema.ts';
import { PasswordHasher } from './domain/accounts/passwords.ts';
import { SessionCache } from './domain/checkout/session-cache.ts';
import type { DomainContext } from './domain/context.ts';
import { readAcquirerSettings } from './domain/integrators/acquirer.ts';
import { TokenCache } from './domain/integrators/token-cache.ts';
import { LinkCache } from './domain/links/link-cache.ts';
import { QrCache } from './domain/links/qr.ts';
import { createLogger, type Logger } from './log.ts';
import type { Tracing } from './telemetry.ts';

/**
 * Everything a request or a worker needs, built once per process and passed down explicitly:
 * routes get it as `Astro.locals.paylink`, workers as an argument, tests build their own. The
 * domain sees only its part of it, `DomainContext` (src/domain/context.ts).
 */
export interface PaylinkApp extends DomainContext {
  database: Database;
  /** The velocity limits (API requests, failed authentications, card attempts); `cardVelocity` is the same object. */
  rateLimits: RateLimits;
  /** Payment pages rendered once per link version (src/api/page-cache.ts). */
  pageCache: PageCache;
  /** Set by the HTTP server once it listens on a port (PORT=0 picks one). */
  boundPort?: number;
  /** Where each answered request is counted when metrics are on (src/http/metrics.ts). */
  observeRequest?: (method: string, route: string, status: number, seconds: number) => void;
  /** Each request's server span when OpenTelemetry traces are on (src/telemetry.ts). */
  tracing?: Tracing;
  masterKeyInfo: { source: MasterKeySource; path?: string };
}

export interface CreateAppOptions {
  config: Config;
  log?: Logger;
  now?: () => Date;
  /** Overrides for tests: an in-memory PGlite from a template, a fixed master key. */
  database?: Partial<OpenDatabaseOptions>;
  /** Where an integrator's acquirer settings come from; the integrator_acquirers table when absent. */
  acquirerSettings?: (integratorId: string) => Promise<AcquirerSettings>;
  migrate?: boolean;
}

export async function createApp(options: CreateAppOptions): Promise<PaylinkApp> {
  const { config } = options;
  const log = options.log ?? createLogger(config.logLevel);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    pgliteSharedBuffersMb: config.pgliteSharedBuffersMb,
    pgliteSync: config.pgliteSync,
    ...options.database,
  });
  // The key must be the one this database's secrets are sealed with (src/db/master-key.ts): a
  // process with another key refuses to start rather than seal new secrets under it.
  let master: SettledMasterKey;
  try {
    if (options.migrate !== false) await database.migrate();
    master = await settleMasterKey(database.db, { masterKey: config.masterKey, dataDir: config.dataDir });
  } catch (error) {
    await database.close();
    throw error;
  }
  // Payment pages keep active links, and API authentication known tokens, in memory; a write in
  // any process empties both (NOTIFY paylink_links, one listening connection).
  const linkCache = new LinkCache(database.db);
  const tokenCache = new TokenCache(database.db);
  const stopWatching = await database
    .listen('paylink_links', () => {
      linkCache.changed();
      tokenCache.changed();
    })
    .catch(() => async () => {});
  const sessionCache = new SessionCache(database.db, { keep: database.kind === 'pglite' });
  const stopWatchingSessions = await sessionCache.watch(database);
  const closeDatabase = database.close.bind(database);
  database.close = async () => {
    await stopWatching();
    await stopWatchingSessions();
    await closeDatabase();
  };
  const now = options.now ?? (() => new Date());
  const secrets = createSealer(master.key, keyPurposes.integratorSecrets);
  const sandbox = new SandboxAcquirer({
    db: database.db,
    vaultSealer: createSealer(master.key, keyPurposes.sandboxVault),
    fingerprint: createFingerprinter(master.key, keyPurposes.cardFingerprint),
    now,
  });
  const connectors = new ConnectorRegistry({
    sandbox: new SandboxConnector(sandbox, database.db, now),
    settingsFor: options.acquirerSettings ?? ((integratorId) => readAcquirerSettings(database.db, secrets, integratorId)),
    factories: { paymongo: (settings) => new PaymongoConnector(settings, now) },
  });
  connectors.register('stripe', (settings) => new StripeConnector(settings, now));
  const limits = new RateLimits(config.limits, database.kind === 'postgres' ? sharedLimiters(database.db) : memoryLimiters);
  const app: PaylinkApp = {
    config,
    database,
    db: database.db,
    log,
    now,
    secrets,
    presentEvent,
    staticSessionMac: createMac(master.key, keyPurposes.staticSessionTicket),
    subscriberMac: createMac(master.key, keyPurposes.subscriberPage),
    consoleMac: createMac(master.key, keyPurposes.console),
    passwords: new PasswordHasher(config.console.passwordCheckQueue),
    rateLimits: limits,
    cardVelocity: limits,
    connectors,
    linkCache,
    tokenCache,
    sessionCache,
    pageCache: new PageCache(),
    qrCache: new QrCache(),
    origin: () => publicOrigin(config, app.boundPort),
    masterKeyInfo: { source: master.source, path: master.path },
  };
  return app;
}

/**
 * On PostgreSQL the counters live in the `rate_limits` table (created by a migration) so every
 * process counts together; if the database cannot be reached for a moment, a counter in memory
 * stands in rather than failing the request.
 */
function sharedLimiters(db: Database['db']): LimiterFactory {
  return (opts) =>
    new RateLimiterDrizzle({
      ...opts,
      storeClient: db,
      schema: rateLimits,
      // Expired rows are purged by the workers (src/workers/index.ts), not by a timer per limiter.
      clearExpiredByTimeout: false,
      insuranceLimiter: new RateLimiterMemory(opts),
    });
}
