import { RateLimiterDrizzle, RateLimiterMemory } from 'rate-limiter-flexible';
import { PaymongoConnector } from './acquirer/paymongo/connector.ts';
import { type AcquirerSettings, ConnectorRegistry } from './acquirer/registry.ts';
import { SandboxAcquirer } from './acquirer/sandbox.ts';
import { SandboxConnector } from './acquirer/sandbox-connector.ts';
import { StripeConnector } from './acquirer/stripe/connector.ts';
import { presentEvent } from './api/presenters/events.ts';
import { type LimiterFactory, memoryLimiters, RateLimits } from './api/rate-limits.ts';
import { RenderedPages } from './api/rendered-pages.ts';
import { type Config, publicOrigin } from './config.ts';
import { createFingerprinter, createMac, createSealer, keyPurposes, type Mac, type MasterKeySource, type Sealer } from './crypto.ts';
import { type Database, type OpenDatabaseOptions, openDatabase } from './db/client.ts';
import { type SettledMasterKey, settleMasterKey } from './db/master-key.ts';
import { rateLimits } from './db/schema.ts';
import { SessionViews } from './domain/checkout/session-views.ts';
import type { CardVelocity } from './domain/checkout/velocity.ts';
import { readAcquirerSettings } from './domain/integrators/acquirer.ts';
import { IntegratorTokens } from './domain/integrators/tokens.ts';
import { LinkViews } from './domain/links/link-views.ts';
import { QrCache } from './domain/links/qr.ts';
import type { EventPresenter } from './domain/notifications/domain-events.ts';
import { createLogger, type Logger } from './log.ts';

/**
 * Everything a request or a worker needs, built once per process and passed down explicitly:
 * routes get it as `Astro.locals.paylink`, workers as an argument, tests build their own.
 */
export interface PaylinkApp {
  config: Config;
  database: Database;
  /** Shorthand for database.db. */
  db: Database['db'];
  log: Logger;
  /**
   * The connector each integrator takes payments through (src/acquirer/registry.ts); the sandbox by
   * default. What only some connectors can do (a card vault, ...) is a capability they declare.
   */
  connectors: ConnectorRegistry;
  /** Seals integrator secrets (JWT and webhook secrets) at rest. */
  secrets: Sealer;
  /** Words a domain event as the `data` integrators receive (the API layer's presenter, injected). */
  presentEvent: EventPresenter;
  /** Signs the session tickets static payment pages are rendered with. */
  staticSessionMac: Mac;
  /** Keyed MACs of the console: CSRF tokens (src/api/console.ts) and fingerprints of seeded passwords. */
  consoleMac: Mac;
  /** The velocity limits (API requests, failed authentications, card attempts). */
  rateLimits: RateLimits;
  /** The same limits, as the checkout sees them. */
  cardVelocity: CardVelocity;
  now: () => Date;
  /** Active links as payment pages read them, kept in memory (src/domain/links/link-views.ts). */
  linkViews: LinkViews;
  /** API tokens kept in memory (src/domain/integrators/tokens.ts). */
  integratorTokens: IntegratorTokens;
  /** Checkout sessions as the checkout page reads them, kept in memory on PGlite (src/domain/checkout/session-views.ts). */
  sessionViews: SessionViews;
  /** Payment pages rendered once per link version (src/api/rendered-pages.ts). */
  renderedPages: RenderedPages;
  /** QR codes drawn once per link version (src/domain/links/qr.ts). */
  qrCache: QrCache;
  /** Origin for generated links (PUBLIC_URL, or the bound address). */
  origin(): string;
  /** Set by the HTTP server once it listens on a port (PORT=0 picks one). */
  boundPort?: number;
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
  const linkViews = new LinkViews(database.db);
  const integratorTokens = new IntegratorTokens(database.db);
  const stopWatching = await database
    .listen('paylink_links', () => {
      linkViews.changed();
      integratorTokens.changed();
    })
    .catch(() => async () => {});
  const sessionViews = new SessionViews(database.db, { keep: database.kind === 'pglite' });
  const stopWatchingSessions = await sessionViews.watch(database);
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
    consoleMac: createMac(master.key, keyPurposes.console),
    rateLimits: limits,
    cardVelocity: limits,
    connectors,
    linkViews,
    integratorTokens,
    sessionViews,
    renderedPages: new RenderedPages(),
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
