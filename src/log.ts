/**
 * Structured one-line JSON logs, written by pino (levels, JSON, its `redact` paths for the keys that
 * are always secret, an asynchronous stdout flushed at exit). pino cannot see inside values, so
 * paylink's own redaction runs first, as pino's log and bindings formatter: values under sensitive
 * keys are replaced, strings that look like card numbers or e-mail addresses are masked and
 * `cvc: "123"`-like pairs inside strings (an error message quoting a request) lose their value, so
 * no PAN, CVC, token, secret or customer address reaches a log line even by accident. A failed database query is logged by its SQL text,
 * its error code and the constraint, table or column it names, never by its parameters or by the
 * values a database message quotes: those are customer data (names, e-mails, addresses).
 */
import pino, { type DestinationStream } from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const SENSITIVE_KEY = /(pan|card_?number|number|cvc|cvv|security_?code|secret|token|password|authorization|cookie|key|payload|signature|master|e_?mail)/i;
/**
 * 12 to 19 digits, spaced or dashed: a card number. A UUID (every paylink reference) comes first in
 * the alternation so it is consumed whole and kept: its last group can be 12 digits, or its groups
 * digits only, which alone would read as a card number (a reference masked in one log line in ~300).
 */
const UUID_SOURCE = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const PAN_LIKE = new RegExp(`\\b${UUID_SOURCE}\\b|\\b(?:\\d[ -]?){12,19}\\b`, 'gi');
const UUID = new RegExp(`^${UUID_SOURCE}$`, 'i');
const maskPan = (match: string) => (UUID.test(match) ? match : '[redacted-number]');
/** A customer's (or anyone's) address quoted in a message: an SMTP refusal, an error echoing input. */
const EMAIL_LIKE = /[\w.%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** `"cvc":"123"`, `cvc=123`, `'secret': 'x'` inside a string (an error message that quotes a request): the value is replaced. */
const SENSITIVE_PAIR =
  /(["']?)\b(cvc2?|cvv2?|security_?code|card_?number|pan|password|secret|token|authorization)\1(\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s,;&}\]]+)/gi;

/** Drizzle's query error: `Failed query: <sql>\nparams: <every parameter>`. */
const isQueryError = (error: Error): error is Error & { query: string } => typeof (error as { query?: unknown }).query === 'string' && 'params' in error;
/** A database's own error (node-postgres, PGlite): a SQLSTATE code, messages that quote values, and (PGlite) the query's parameters. */
const isDatabaseError = (error: Error): error is Error & Record<'code' | 'constraint' | 'table' | 'column', unknown> => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
};

function redactError(error: Error, depth: number): Record<string, unknown> {
  if (isDatabaseError(error)) {
    // `invalid input syntax for type integer: "<value>"`: the quoted part is the parameter.
    const out: Record<string, unknown> = { name: error.name, message: error.message.replace(/"[^"]*"/g, '"…"'), code: error.code };
    for (const key of ['constraint', 'table', 'column'] as const) if (typeof error[key] === 'string') out[key] = error[key];
    return out;
  }
  if (isQueryError(error)) {
    const out: Record<string, unknown> = { name: 'DrizzleQueryError', message: 'database query failed', query: redact(error.query, depth + 1) };
    if (error.cause instanceof Error) out.cause = redactError(error.cause, depth + 1);
    return out;
  }
  const out: Record<string, unknown> = { name: error.name, message: redact(error.message, depth + 1) };
  if (error.cause instanceof Error && depth < 6) out.cause = redactError(error.cause, depth + 1);
  return out;
}

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[…]';
  if (typeof value === 'string')
    return value.replace(PAN_LIKE, maskPan).replace(EMAIL_LIKE, '[redacted-email]').replace(SENSITIVE_PAIR, '$1$2$1$3"[redacted]"');
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return redactError(value, depth);
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SENSITIVE_KEY.test(k) && !/(_id|_ref|reference|count|last4|brand|status|code)$/i.test(k) ? '[redacted]' : redact(v, depth + 1);
    }
    return out;
  }
  return value;
}

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
  /** Resolves once every line written so far has reached the destination (before a planned exit). */
  flush(): Promise<void>;
}

/** Where lines go instead of stdout (tests): one call per line, without its newline. */
export type LogSink = (line: string) => void;

/**
 * Keys pino itself censors: the secrets paylink never logs on purpose, at the top of a line and where
 * a card or headers would carry them. paylink's redaction replaces them first (and any key, at any
 * depth, that merely contains such a word); these paths hold even if it were bypassed. No `*.`
 * wildcards: they made every line 2 to 3 times dearer (docs/deploy.md, "Logs").
 */
const ALWAYS_SECRET = ['token', 'secret', 'password', 'authorization', 'cookie', 'cvc', 'cvv', 'pan', 'card_number', 'api_key', 'webhook_secret', 'master_key'];
export const REDACT_PATHS = [...ALWAYS_SECRET, 'card.number', 'card.cvc', 'headers.authorization', 'headers.cookie'];

const sinkStream = (sink: LogSink): DestinationStream => ({ write: (line: string) => sink(line.endsWith('\n') ? line.slice(0, -1) : line) });

/**
 * `{"level":"info","time":"2026-…Z",…child fields,"msg":"request",…fields}`: the field names of
 * paylink's lines before pino (a level name, an ISO time, `msg`), no pid or hostname.
 */
export function createLogger(level: LogLevel, sink?: LogSink, base: Record<string, unknown> = {}): Logger {
  const destination = sink ? sinkStream(sink) : pino.destination({ dest: 1, sync: false, minLength: 0 });
  const root = pino(
    {
      level,
      base: null,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      formatters: {
        level: (label) => ({ level: label }),
        log: (fields) => redact(fields) as Record<string, unknown>,
      },
    },
    destination,
  );
  return Object.keys(base).length > 0 ? wrap(root).child(base) : wrap(root);
}

function wrap(logger: pino.Logger): Logger {
  const write = (method: 'debug' | 'info' | 'warn' | 'error') => (msg: string, fields?: Record<string, unknown>) => {
    // The message as the first field, not pino's last: a line reads (and greps) `"msg":"…"` before its details, as before pino.
    if (logger.isLevelEnabled(method)) logger[method]({ msg, ...fields });
  };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    // pino runs no formatter on a child's fields (they are serialized once, here): redacted first.
    child: (fields) => wrap(logger.child(redact(fields) as Record<string, unknown>)),
    flush: () => new Promise((resolve) => logger.flush(() => resolve())),
  };
}
