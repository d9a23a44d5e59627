import type { ConnectorRegistry } from '../acquirer/registry.ts';
import type { Config } from '../config.ts';
import type { Mac, Sealer } from '../crypto.ts';
import type { Database } from '../db/client.ts';
import type { Logger } from '../log.ts';
import type { PasswordHasher } from './accounts/passwords.ts';
import type { SessionCache } from './checkout/session-cache.ts';
import type { CardVelocity } from './checkout/velocity.ts';
import type { TokenCache } from './integrators/token-cache.ts';
import type { LinkCache } from './links/link-cache.ts';
import type { QrCache } from './links/qr.ts';
import type { EventPresenter } from './notifications/domain-events.ts';

/**
 * What the domain's services are handed: the domain defines it, so it depends on nothing above it.
 * The per-process app (src/app.ts) extends it with what only requests and workers use.
 */
export interface DomainContext {
  config: Config;
  /** Only its kind: the schedule runner charges one at a time on PGlite's single connection. */
  database: Pick<Database, 'kind'>;
  db: Database['db'];
  log: Logger;
  now: () => Date;
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
  /** Signs the links that open a customer's subscriptions page. */
  subscriberMac: Mac;
  /** Keyed MACs of the console: CSRF tokens (src/api/console.ts) and fingerprints of seeded passwords. */
  consoleMac: Mac;
  /** Console password hashing and checks, off the event loop behind a bounded queue. */
  passwords: PasswordHasher;
  /** The velocity limits on card attempts. */
  cardVelocity: CardVelocity;
  /** Active links as payment pages read them (src/domain/links/link-cache.ts). */
  linkCache: LinkCache;
  /** API tokens and link keys as authentication reads them (src/domain/integrators/token-cache.ts). */
  tokenCache: TokenCache;
  /** Checkout sessions as the checkout page reads them, on PGlite (src/domain/checkout/session-cache.ts). */
  sessionCache: SessionCache;
  /** QR codes drawn once per link version (src/domain/links/qr.ts). */
  qrCache: QrCache;
  /** Origin for generated links (PUBLIC_URL, or the bound address). */
  origin(): string;
}
