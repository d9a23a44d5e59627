import { createHash } from 'node:crypto';
import type { Connector } from './connector.ts';

/** The acquirers an integrator can take payments through. */
export const acquirerProviders = ['sandbox', 'paymongo', 'stripe'] as const;
export type AcquirerProvider = (typeof acquirerProviders)[number];

/** A real provider's settings, secrets already opened (they are sealed at rest). */
export interface ProviderSettings {
  provider: Exclude<AcquirerProvider, 'sandbox'>;
  secretKey: string;
  publicKey: string;
  webhookSecret: string;
  /** The provider's API origin (tests point it at an in-repo fake). */
  apiBaseUrl: string;
  /** Customers pay on the provider's own page (PayMongo checkout_sessions). */
  hostedCheckout?: boolean;
}

export type AcquirerSettings = { provider: 'sandbox' } | ProviderSettings;

/** Builds a connector from an integrator's settings (one per provider, e.g. src/acquirer/paymongo/connector.ts). */
export type ConnectorFactory = (settings: ProviderSettings) => Connector;

export interface ConnectorRegistryOptions {
  sandbox: Connector;
  /** The integrator's acquirer settings; the sandbox when it has none. */
  settingsFor: (integratorId: string) => Promise<AcquirerSettings>;
  factories?: Partial<Record<ProviderSettings['provider'], ConnectorFactory>>;
  /** How long an integrator's settings are kept before they are read again (default 5 s). */
  settingsTtlMs?: number;
  now?: () => number;
}

export class UnknownAcquirerError extends Error {
  constructor(provider: string) {
    super(`no connector is registered for the ${provider} acquirer`);
    this.name = 'UnknownAcquirerError';
  }
}

/**
 * Which connector takes an integrator's payments. Built connectors are kept per integrator and
 * rebuilt when the integrator's settings change (a rotated key takes effect on the next call).
 */
export class ConnectorRegistry {
  private readonly factories: Partial<Record<ProviderSettings['provider'], ConnectorFactory>>;
  private readonly built = new Map<string, { version: string; connector: Connector }>();
  /** Settings read recently: a refund or payment costs no extra database round trip. */
  private readonly recent = new Map<string, { settings: AcquirerSettings; at: number }>();

  constructor(private readonly opts: ConnectorRegistryOptions) {
    this.factories = { ...opts.factories };
  }

  get sandbox(): Connector {
    return this.opts.sandbox;
  }

  /** Adds (or replaces) the factory of one provider. */
  register(provider: ProviderSettings['provider'], factory: ConnectorFactory): void {
    this.factories[provider] = factory;
    this.built.clear();
  }

  /**
   * The integrator's connector. Settings are re-read after `settingsTtlMs` (a change made by
   * another process takes effect within it); `forget` drops them at once in this process.
   */
  async forIntegrator(integratorId: string): Promise<Connector> {
    const now = (this.opts.now ?? Date.now)();
    const known = this.recent.get(integratorId);
    if (known && now - known.at < (this.opts.settingsTtlMs ?? 5000)) return this.forSettings(integratorId, known.settings);
    const settings = await this.opts.settingsFor(integratorId);
    if (this.recent.size > 10_000) this.recent.clear();
    this.recent.set(integratorId, { settings, at: now });
    return this.forSettings(integratorId, settings);
  }

  /** After a change of the integrator's settings: the next call reads them again. */
  forget(integratorId: string): void {
    this.recent.delete(integratorId);
  }

  /** The connector for settings already read (e.g. in the same transaction as the integrator). */
  forSettings(integratorId: string, settings: AcquirerSettings): Connector {
    if (settings.provider === 'sandbox') return this.opts.sandbox;
    const version = createHash('sha256').update(JSON.stringify(settings)).digest('hex');
    const cached = this.built.get(integratorId);
    if (cached?.version === version) return cached.connector;
    const factory = this.factories[settings.provider];
    if (!factory) throw new UnknownAcquirerError(settings.provider);
    const connector = factory(settings);
    this.built.set(integratorId, { version, connector });
    return connector;
  }
}
