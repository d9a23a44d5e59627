/**
 * Structured one-line JSON logs. Values under sensitive keys are replaced before anything is
 * written, strings that look like card numbers are masked and `cvc: "123"`-like pairs inside
 * strings (an error message quoting a request) lose their value, so no PAN, CVC, token or secret
 * reaches a log line even by accident. A failed database query is logged by its SQL text, its
 * error code and the constraint, table or column it names, never by its parameters or by the
 * values a database message quotes: those are customer data (names, e-mails, addresses).
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

const SENSITIVE_KEY = /(pan|card_?number|number|cvc|cvv|security_?code|secret|token|password|authorization|key|payload|signature|master)/i;
const PAN_LIKE = /\b(?:\d[ -]?){12,19}\b/g;
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
  if (typeof value === 'string') return value.replace(PAN_LIKE, '[redacted-number]').replace(SENSITIVE_PAIR, '$1$2$1$3"[redacted]"');
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
}

export type LogSink = (line: string) => void;

export function createLogger(level: LogLevel, sink: LogSink = (line) => process.stdout.write(`${line}\n`), base: Record<string, unknown> = {}): Logger {
  const write = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (rank[lvl] < rank[level]) return;
    const entry = { time: new Date().toISOString(), level: lvl, msg: redact(msg), ...(redact({ ...base, ...fields }) as object) };
    sink(JSON.stringify(entry));
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger(level, sink, { ...base, ...fields }),
  };
}
