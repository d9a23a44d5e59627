import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * Every setting paylink reads, from the environment, validated once at start.
 * A bad value stops the process with a message naming the variable (see loadConfig).
 */
const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .default('0')
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const nonNegativeInt = (fallback: number) => z.coerce.number().int().min(0).default(fallback);
const secondsList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      const parts = v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map(Number);
      if (parts.length === 0 || parts.some((n) => !Number.isInteger(n) || n <= 0)) {
        ctx.addIssue({ code: 'custom', message: 'must be a comma-separated list of positive whole seconds' });
        return z.NEVER;
      }
      return parts;
    });

/** A velocity limit: at most `points` events per `seconds` (a fixed window per key). */
export interface RateLimit {
  points: number;
  seconds: number;
}

/** `count/seconds` (e.g. `20/3600`), or `off`. */
const rateLimit = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx): RateLimit | undefined => {
      const text = v.trim().toLowerCase();
      if (text === 'off') return undefined;
      const match = /^(\d+)\s*\/\s*(\d+)$/.exec(text);
      const points = Number(match?.[1]);
      const seconds = Number(match?.[2]);
      if (!match || !Number.isSafeInteger(points) || points < 1 || !Number.isSafeInteger(seconds) || seconds < 1) {
        ctx.addIssue({ code: 'custom', message: 'must be `count/seconds` with whole numbers of at least 1 (e.g. 20/3600), or `off`' });
        return z.NEVER;
      }
      return { points, seconds };
    });

/** The largest Apple Pay domain association file paylink serves (Apple's are a few kilobytes of text). */
const APPLE_PAY_ASSOCIATION_MAX_BYTES = 64 * 1024;

/** A path to the Apple Pay domain association file: read once at start, so a path that cannot be read stops the process. */
const applePayAssociation = z
  .string()
  .optional()
  .transform((path, ctx): string | undefined => {
    if (path === undefined || path.trim() === '') return undefined;
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
      return z.NEVER;
    }
    if (bytes.length === 0 || bytes.length > APPLE_PAY_ASSOCIATION_MAX_BYTES) {
      ctx.addIssue({ code: 'custom', message: `must name a file of 1 to ${APPLE_PAY_ASSOCIATION_MAX_BYTES} bytes (the one Stripe gives for Apple Pay)` });
      return z.NEVER;
    }
    return bytes.toString('utf8');
  });

export const configSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .transform((v) => v?.replace(/\/+$/, '')),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DATABASE_POOL_SIZE: positiveInt(10),
  PAYLINK_PGLITE_SHARED_BUFFERS_MB: z.coerce.number().int().min(1).max(16_384).default(32),
  PAYLINK_PGLITE_SYNC: z.enum(['commit', 'off']).default('commit'),
  PAYLINK_DATA_DIR: z.string().min(1).default('./data'),
  PAYLINK_SEED: z
    .string()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PAYLINK_GENERATED_SECRETS_FILE: z
    .string()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PAYLINK_MASTER_KEY: z
    .string()
    .optional()
    .or(z.literal('').transform(() => undefined))
    .refine((v) => v === undefined || Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded (openssl rand -base64 32)'),
  PAYLINK_ALLOW_PRIVATE_CALLBACKS: flag,
  PAYLINK_WORKERS: flag.default(true),
  PAYLINK_TRUST_PROXY: flag,
  PAYLINK_CHECKOUT_TTL_SECONDS: positiveInt(24 * 60 * 60),
  PAYLINK_CHECKOUT_MAX_ATTEMPTS: positiveInt(5),
  PAYLINK_REFUND_MAX_COUNT: positiveInt(10),
  PAYLINK_REFUND_WINDOW_DAYS: positiveInt(365),
  PAYLINK_REFUND_RECOVERY_SECONDS: positiveInt(60),
  PAYLINK_SCHEDULE_MIN_INTERVAL_SECONDS: positiveInt(60),
  PAYLINK_SCHEDULE_RETRY_SECONDS: secondsList('3600,21600,86400'),
  PAYLINK_SCHEDULE_MAX_FAILED_RUNS: positiveInt(3),
  PAYLINK_SCHEDULE_LEASE_SECONDS: positiveInt(300),
  PAYLINK_WORKER_POLL_MS: positiveInt(1000),
  PAYLINK_WEBHOOK_TIMEOUT_MS: positiveInt(10_000),
  PAYLINK_WEBHOOK_RETRY_SECONDS: secondsList('5,300,1800,7200,18000,36000,50400,72000,86400'),
  PAYLINK_WEBHOOK_CONCURRENCY: positiveInt(16),
  PAYLINK_PROVIDER_WEBHOOK_TOLERANCE_SECONDS: positiveInt(300),
  /** Scheduler loops per process on PostgreSQL (PGlite always runs one: it is one connection). */
  PAYLINK_SCHEDULER_LOOPS: z.coerce.number().int().min(1).max(16).default(3),
  /** Due charges a scheduler loop claims, charges and records together. */
  PAYLINK_SCHEDULER_BATCH: z.coerce.number().int().min(1).max(1000).default(400),
  PAYLINK_MAIL_RETRY_SECONDS: secondsList('60,300,1800,7200,21600,43200,86400'),
  PAYLINK_IDEMPOTENCY_TTL_SECONDS: positiveInt(24 * 60 * 60),
  PAYLINK_LIMIT_CARD_ATTEMPTS_PER_IP: rateLimit('20/3600'),
  PAYLINK_LIMIT_CARD_ATTEMPTS_PER_LINK: rateLimit('300/3600'),
  PAYLINK_LIMIT_DECLINES_PER_CARD: rateLimit('5/86400'),
  PAYLINK_LIMIT_DECLINE_REASONS: rateLimit('3/3600'),
  PAYLINK_LIMIT_API_REQUESTS: rateLimit('100/1'),
  PAYLINK_LIMIT_AUTH_FAILURES: rateLimit('20/900'),
  PAYLINK_LIMIT_SIGN_IN_FAILURES: rateLimit('30/900'),
  PAYLINK_LIMIT_QR_RENDERS: rateLimit('30/60'),
  // PCI DSS 4.0 8.2.8 and 8.3.4 are the bar: the settings can be stricter, never looser.
  PAYLINK_CONSOLE_IDLE_MINUTES: z.coerce.number().int().min(1).max(15, 'must be at most 15 (PCI DSS 8.2.8)').default(15),
  PAYLINK_CONSOLE_SESSION_HOURS: z.coerce.number().int().min(1).max(24).default(12),
  PAYLINK_CONSOLE_LOCKOUT_ATTEMPTS: z.coerce.number().int().min(1).max(10, 'must be at most 10 (PCI DSS 8.3.4)').default(10),
  PAYLINK_CONSOLE_LOCKOUT_MINUTES: z.coerce
    .number()
    .int()
    .min(30, 'must be at least 30 (PCI DSS 8.3.4)')
    .max(24 * 60)
    .default(30),
  PAYLINK_CONSOLE_INVITE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 7)
    .default(72),
  /** Password checks (Argon2id) that may wait their turn; past this a sign-in is refused at once (503). */
  PAYLINK_PASSWORD_CHECK_QUEUE: z.coerce.number().int().min(1).max(10_000).default(256),
  /** How long console audit entries are kept; PCI DSS 10.5.1 asks for at least 12 months. */
  PAYLINK_AUDIT_RETENTION_DAYS: z.coerce.number().int().min(365, 'must be at least 365 (PCI DSS 10.5.1 keeps audit logs for at least 12 months)').default(400),
  PAYLINK_SHUTDOWN_TIMEOUT_MS: nonNegativeInt(10_000),
  /** host:port of the Prometheus listener (GET /metrics); unset: no metrics. Never the public port. */
  PAYLINK_METRICS_LISTEN: z
    .string()
    .regex(/^(?:\[[^\]]+\]|[^:\s]+):\d{1,5}$/, 'must be host:port, such as 127.0.0.1:9464')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** host:port of a local GET /healthz for a process without the public port (`npm run worker`); unset: none. */
  PAYLINK_HEALTH_LISTEN: z
    .string()
    .regex(/^(?:\[[^\]]+\]|[^:\s]+):\d{1,5}$/, 'must be host:port, such as 127.0.0.1:9465')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PAYLINK_APPLE_PAY_DOMAIN_ASSOCIATION: applePayAssociation,
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z.string().default('paylink <no-reply@paylink.localhost>'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

type Env = z.infer<typeof configSchema>;

export interface Config {
  host: string;
  port: number;
  /** Origin used in generated links; defaults to http://HOST:PORT. */
  publicUrl: string | undefined;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** The embedded database's shared_buffers (src/db/pglite.ts, docs/deploy.md). */
  pgliteSharedBuffersMb: number;
  /** Whether the embedded database flushes its log to the disk before a commit returns (docs/deploy.md#durability). */
  pgliteSync: 'commit' | 'off';
  dataDir: string;
  seedPath: string | undefined;
  /** Where secrets the seed left out and paylink generated are written (0600); undefined: printed once at start. */
  generatedSecretsFile: string | undefined;
  masterKey: string | undefined;
  allowPrivateCallbacks: boolean;
  runWorkers: boolean;
  /** One reverse proxy in front: X-Forwarded-For (client IP) and X-Forwarded-Proto (HSTS) are believed. */
  trustProxy: boolean;
  /** The metrics listener's address (host:port); undefined: metrics off. */
  metricsListen: string | undefined;
  /** host:port of the worker health listener (GET /healthz), or undefined. */
  healthListen: string | undefined;
  checkoutTtlSeconds: number;
  checkoutMaxAttempts: number;
  refundMaxCount: number;
  refundWindowDays: number;
  /** A refund still pending this long after it started is presumed interrupted and is recovered. */
  refundRecoverySeconds: number;
  scheduleMinIntervalSeconds: number;
  scheduleRetrySeconds: number[];
  scheduleMaxFailedRuns: number;
  /** A claimed occurrence whose charge has not been recorded this long after the claim is presumed
   * interrupted (crash) and is charged again with the same idempotency key. */
  scheduleLeaseSeconds: number;
  workerPollMs: number;
  webhookTimeoutMs: number;
  webhookRetrySeconds: number[];
  /** Callbacks in flight at once per process. */
  webhookConcurrency: number;
  /** A provider webhook (Stripe, PayMongo) whose signature time is further than this from now, either way, is refused. */
  providerWebhookToleranceSeconds: number;
  /** Scheduler loops per process with PostgreSQL (src/workers/scheduler.ts). */
  schedulerLoops: number;
  /** Due charges claimed, charged and recorded together by one scheduler pass (src/domain/schedules/tick.ts). */
  schedulerBatch: number;
  /** Waits between e-mail attempts after a temporary failure; then the e-mail is failed. */
  mailRetrySeconds: number[];
  idempotencyTtlSeconds: number;
  /** Velocity limits (src/api/rate-limits.ts, docs/security.md); undefined when set to `off`. */
  limits: {
    /** Card attempts per client IP per payment link. */
    cardAttemptsPerIp: RateLimit | undefined;
    /** Card attempts per static payment link, from everyone. */
    cardAttemptsPerLink: RateLimit | undefined;
    /** Declines per card (acquirer fingerprint) before the card is refused outright. */
    declinesPerCard: RateLimit | undefined;
    /** Declines per client IP per link (and per card) whose precise reason is shown; later ones read "declined". */
    declineReasons: RateLimit | undefined;
    /** API requests per integrator. */
    apiRequests: RateLimit | undefined;
    /** Failed authentications (unknown API token or link key) per client IP. */
    authFailures: RateLimit | undefined;
    /** Failed console sign-ins per client IP (every account together). */
    signInFailures: RateLimit | undefined;
    /** QR codes drawn (not served from memory) per client IP. */
    qrRenders: RateLimit | undefined;
  };
  /** The merchant console's accounts (docs/console.md). */
  console: {
    idleMinutes: number;
    sessionHours: number;
    lockoutAttempts: number;
    lockoutMinutes: number;
    inviteHours: number;
    /** Password checks that may wait their turn (src/domain/accounts/passwords.ts). */
    passwordCheckQueue: number;
    /** Audit log entries older than this many days are deleted. */
    auditRetentionDays: number;
  };
  shutdownTimeoutMs: number;
  /**
   * The Apple Pay domain association file's text (PAYLINK_APPLE_PAY_DOMAIN_ASSOCIATION names the
   * file), served at /.well-known/apple-developer-merchantid-domain-association; undefined: not served.
   */
  applePayDomainAssociation: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  logLevel: Env['LOG_LEVEL'];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`paylink cannot start: invalid configuration\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The configuration, or `fail` with the message naming each bad variable (process entries: one line, no stack). */
export function loadConfigOrFail(fail: (message: string) => never): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

/** Parses the environment; throws ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (issue) => `${String(issue.path[0] ?? '(environment)')}: ${issue.message} (got ${JSON.stringify(env[String(issue.path[0])] ?? null)})`,
      ),
    );
  }
  const e = parsed.data;
  return {
    host: e.HOST,
    port: e.PORT,
    publicUrl: e.PUBLIC_URL,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    pgliteSharedBuffersMb: e.PAYLINK_PGLITE_SHARED_BUFFERS_MB,
    pgliteSync: e.PAYLINK_PGLITE_SYNC,
    dataDir: e.PAYLINK_DATA_DIR,
    seedPath: e.PAYLINK_SEED,
    generatedSecretsFile: e.PAYLINK_GENERATED_SECRETS_FILE,
    masterKey: e.PAYLINK_MASTER_KEY,
    allowPrivateCallbacks: e.PAYLINK_ALLOW_PRIVATE_CALLBACKS,
    runWorkers: e.PAYLINK_WORKERS,
    trustProxy: e.PAYLINK_TRUST_PROXY,
    metricsListen: e.PAYLINK_METRICS_LISTEN,
    healthListen: e.PAYLINK_HEALTH_LISTEN,
    checkoutTtlSeconds: e.PAYLINK_CHECKOUT_TTL_SECONDS,
    checkoutMaxAttempts: e.PAYLINK_CHECKOUT_MAX_ATTEMPTS,
    refundMaxCount: e.PAYLINK_REFUND_MAX_COUNT,
    refundWindowDays: e.PAYLINK_REFUND_WINDOW_DAYS,
    refundRecoverySeconds: e.PAYLINK_REFUND_RECOVERY_SECONDS,
    scheduleMinIntervalSeconds: e.PAYLINK_SCHEDULE_MIN_INTERVAL_SECONDS,
    scheduleRetrySeconds: e.PAYLINK_SCHEDULE_RETRY_SECONDS,
    scheduleMaxFailedRuns: e.PAYLINK_SCHEDULE_MAX_FAILED_RUNS,
    scheduleLeaseSeconds: e.PAYLINK_SCHEDULE_LEASE_SECONDS,
    workerPollMs: e.PAYLINK_WORKER_POLL_MS,
    webhookTimeoutMs: e.PAYLINK_WEBHOOK_TIMEOUT_MS,
    webhookRetrySeconds: e.PAYLINK_WEBHOOK_RETRY_SECONDS,
    webhookConcurrency: e.PAYLINK_WEBHOOK_CONCURRENCY,
    providerWebhookToleranceSeconds: e.PAYLINK_PROVIDER_WEBHOOK_TOLERANCE_SECONDS,
    schedulerLoops: e.PAYLINK_SCHEDULER_LOOPS,
    schedulerBatch: e.PAYLINK_SCHEDULER_BATCH,
    mailRetrySeconds: e.PAYLINK_MAIL_RETRY_SECONDS,
    idempotencyTtlSeconds: e.PAYLINK_IDEMPOTENCY_TTL_SECONDS,
    limits: {
      cardAttemptsPerIp: e.PAYLINK_LIMIT_CARD_ATTEMPTS_PER_IP,
      cardAttemptsPerLink: e.PAYLINK_LIMIT_CARD_ATTEMPTS_PER_LINK,
      declinesPerCard: e.PAYLINK_LIMIT_DECLINES_PER_CARD,
      declineReasons: e.PAYLINK_LIMIT_DECLINE_REASONS,
      apiRequests: e.PAYLINK_LIMIT_API_REQUESTS,
      authFailures: e.PAYLINK_LIMIT_AUTH_FAILURES,
      signInFailures: e.PAYLINK_LIMIT_SIGN_IN_FAILURES,
      qrRenders: e.PAYLINK_LIMIT_QR_RENDERS,
    },
    console: {
      idleMinutes: e.PAYLINK_CONSOLE_IDLE_MINUTES,
      sessionHours: e.PAYLINK_CONSOLE_SESSION_HOURS,
      lockoutAttempts: e.PAYLINK_CONSOLE_LOCKOUT_ATTEMPTS,
      lockoutMinutes: e.PAYLINK_CONSOLE_LOCKOUT_MINUTES,
      inviteHours: e.PAYLINK_CONSOLE_INVITE_HOURS,
      passwordCheckQueue: e.PAYLINK_PASSWORD_CHECK_QUEUE,
      auditRetentionDays: e.PAYLINK_AUDIT_RETENTION_DAYS,
    },
    shutdownTimeoutMs: e.PAYLINK_SHUTDOWN_TIMEOUT_MS,
    applePayDomainAssociation: e.PAYLINK_APPLE_PAY_DOMAIN_ASSOCIATION,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
  };
}

/** The origin links are generated with. */
export function publicOrigin(config: Pick<Config, 'publicUrl' | 'host' | 'port'>, boundPort?: number): string {
  if (config.publicUrl) return config.publicUrl;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const shownHost = host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host;
  return `http://${shownHost}:${boundPort ?? config.port}`;
}
