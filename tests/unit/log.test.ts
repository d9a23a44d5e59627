import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger, REDACT_PATHS, redact } from '../../src/log.ts';

describe('log', () => {
  it('redacts secrets by key and card numbers anywhere', () => {
    const lines: string[] = [];
    const log = createLogger('info', (l) => lines.push(l));
    log.info('charging 4242 4242 4242 4242 now', {
      token: 'pl_test_abc',
      card: { number: '4000000000000002', cvc: '123', last4: '0002', brand: 'visa' },
      transaction_id: 'txn_1',
      authorization: 'Bearer x',
    });
    const line = lines.join('\n');
    expect(line).not.toContain('4242 4242');
    expect(line).not.toContain('4000000000000002');
    expect(line).not.toContain('pl_test_abc');
    expect(line).not.toContain('"123"');
    expect(line).not.toContain('Bearer x');
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'info', transaction_id: 'txn_1', card: { last4: '0002', brand: 'visa' } });
  });

  it('keeps a reference (a UUID) whole even when its groups are digits that would read as a card number', () => {
    // CI once masked `eba0d04d-65e4-49aa-8ac1-197272258058`: its last group alone is 12 digits.
    for (const reference of ['eba0d04d-65e4-49aa-8ac1-197272258058', '12345678-1234-4123-8123-123456789012', 'ABCDEF01-2345-4678-9ABC-000000000000'])
      expect(redact({ registration: reference, msg: `deleted ${reference} card` })).toEqual({ registration: reference, msg: `deleted ${reference} card` });
    // A card number beside a reference, or dashed like one, is still masked.
    expect(redact('eba0d04d-65e4-49aa-8ac1-197272258058 4111-1111-1111-1111')).toBe('eba0d04d-65e4-49aa-8ac1-197272258058 [redacted-number]');
    expect(redact('41111111-1111-1111')).toBe('[redacted-number]');
  });

  it('redacts a CVC, secret or token that a string quotes as a pair (an error message echoing a request)', () => {
    expect(redact('request was {"card":{"number":"x","cvc":"987","holderName":"Juan"}}')).toBe(
      'request was {"card":{"number":"x","cvc":"[redacted]","holderName":"Juan"}}',
    );
    expect(redact("charge failed: cvv=987&amount=1000; secret: 'shh', token:abc123 Authorization: Bearer")).toBe(
      'charge failed: cvv="[redacted]"&amount=1000; secret: "[redacted]", token:"[redacted]" Authorization: "[redacted]"',
    );
    expect(redact('security_code = 1234 and the reference is 987')).toBe('security_code = "[redacted]" and the reference is 987');
    expect(redact('no pairs here: the CVC is checked by the issuer')).toBe('no pairs here: the CVC is checked by the issuer');
  });

  it('writes nothing below the level and keeps child fields', () => {
    const lines: string[] = [];
    const log = createLogger('warn', (l) => lines.push(l)).child({ component: 'x' });
    log.info('hidden');
    log.warn('shown');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'shown', component: 'x' });
    expect(redact(10n)).toBe('10');
  });
});

describe('log › database errors', () => {
  it('logs a failing query by its SQL, code and constraint, never by its parameters or the values the database quotes', async () => {
    const client = await PGlite.create();
    const db = drizzle({ client });
    try {
      await db.execute(sql`create table customers (email text primary key, age int not null)`);
      await db.execute(sql`insert into customers values (${'juana.lunacruz@example.com'}, 30)`);
      const failures: unknown[] = [];
      for (const statement of [
        sql`insert into customers values (${'juana.lunacruz@example.com'}, ${31})`, // duplicate key: detail quotes the value
        sql`select ${'Juana Lunacruz, 12 Mabini St'}::int`, // invalid input: the message quotes the value
        sql`insert into customers values (${'Juana\u0000Lunacruz'}, 1)`, // NUL: refused by the encoding
      ]) {
        await db.execute(statement).catch((error: unknown) => failures.push(error));
      }
      expect(failures).toHaveLength(3);
      const lines: string[] = [];
      const log = createLogger('error', (l) => lines.push(l));
      for (const error of failures) log.error('request failed', { error });
      const text = lines.join('\n');
      expect(text).not.toMatch(/juana|lunacruz|mabini|params/i);
      const first = JSON.parse(lines[0]!).error;
      expect(first).toMatchObject({ name: 'DrizzleQueryError', message: 'database query failed', query: expect.stringContaining('insert into customers') });
      expect(first.cause).toMatchObject({ code: '23505', constraint: 'customers_pkey' });
      expect(JSON.parse(lines[1]!).error.cause).toMatchObject({ code: '22P02', message: expect.stringContaining('"…"') });
    } finally {
      await client.close();
    }
  }, 60_000); // an embedded database starts in a few seconds on a busy machine
});

describe('log › through pino', () => {
  const capture = (level: 'debug' | 'info' | 'warn' | 'error' = 'debug') => {
    const lines: string[] = [];
    return { lines, log: createLogger(level, (l) => lines.push(l)) };
  };

  it('writes one JSON line per call with the field names operators rely on: level name, ISO time, msg', () => {
    const { lines, log } = capture();
    log.info('request', { method: 'GET', route: '/api/v1/links', status: 200, duration_ms: 1.5, request_id: 'req_1', integrator_id: null });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('\n');
    const entry = JSON.parse(lines[0]!);
    expect(entry).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      msg: 'request',
      method: 'GET',
      route: '/api/v1/links',
      status: 200,
      duration_ms: 1.5,
      request_id: 'req_1',
      integrator_id: null,
    });
  });

  it('lets no PAN, CVC, token, secret or e-mail address through, in the message, the fields, a child’s fields or an error', () => {
    const { lines, log } = capture();
    const child = log.child({ component: 'mailer', token: 'pl_child_token_123', to: 'maria.santos@example.com' });
    child.error('charge for maria.santos@example.com with 5555 5555 5555 4444 failed: {"cvc":"987","token":"pl_live_abc"}', {
      secret: 'jwt-secret-value',
      webhook_secret: 'whsec_webhookvalue',
      headers: { authorization: 'Bearer pl_live_header', cookie: 'paylink_console=sessiontoken' },
      card: { number: '4111111111111111', cvc: '321', last4: '1111', brand: 'visa' },
      customer: { email: 'juan.delacruz@example.org', first_name: 'Juan' },
      customer_email: 'juan.delacruz@example.org',
      attempts: [{ pan: '4000056655665556', password: 'correct horse battery' }],
      error: new Error('SMTP 550 <juan.delacruz@example.org> refused; card 4242424242424242 cvv=777', {
        cause: new Error('upstream said secret: "s3cr3t-upstream"'),
      }),
      transaction_id: 'txn_0123456789abcdef',
    });
    const text = lines.join('\n');
    for (const leak of [
      '5555 5555 5555 4444',
      '4111111111111111',
      '4000056655665556',
      '4242424242424242',
      '987',
      '321',
      '777',
      'pl_live_abc',
      'pl_child_token_123',
      'pl_live_header',
      'sessiontoken',
      'jwt-secret-value',
      'whsec_webhookvalue',
      'correct horse',
      's3cr3t-upstream',
      'maria.santos',
      'juan.delacruz',
      '@example',
    ])
      expect(text, leak).not.toContain(leak);
    const entry = JSON.parse(lines[0]!);
    // What is not sensitive stays readable.
    expect(entry).toMatchObject({
      level: 'error',
      component: 'mailer',
      transaction_id: 'txn_0123456789abcdef',
      card: { last4: '1111', brand: 'visa' },
      customer: { first_name: 'Juan' },
      error: { name: 'Error', message: expect.stringContaining('[redacted-email]') },
    });
    expect(entry.msg).toBe('charge for [redacted-email] with [redacted-number]failed: {"cvc":"[redacted]","token":"[redacted]"}');
  });

  it('keeps pino’s own censoring of the always-secret keys valid (a path pino refused would throw at start)', () => {
    const lines: string[] = [];
    const plain = pino({ redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: null }, { write: (l: string) => lines.push(l) });
    plain.info({ token: 't0ken', card: { number: '4111111111111111' }, headers: { cookie: 'c00kie' }, route: '/x' }, 'raw');
    expect(JSON.parse(lines[0]!)).toMatchObject({ token: '[redacted]', card: { number: '[redacted]' }, headers: { cookie: '[redacted]' }, route: '/x' });
  });

  it('writes nothing below its level, and a silent logger nothing at all', () => {
    const { lines, log } = capture('warn');
    log.debug('d');
    log.info('i');
    log.warn('w');
    log.error('e');
    expect(lines.map((l) => JSON.parse(l).level)).toEqual(['warn', 'error']);
    const silent: string[] = [];
    createLogger('silent', (l) => silent.push(l)).error('never');
    expect(silent).toEqual([]);
  });

  it('delivers every line written to stdout before an exit, the asynchronous destination flushed', () => {
    const script = [
      `import { createLogger } from ${JSON.stringify(pathToFileURL(join(process.cwd(), 'src/log.ts')).href)};`,
      "const log = createLogger('info');",
      "for (let i = 0; i < 5000; i++) log.info('line', { i });",
      'process.exit(0);',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--input-type=module', '--disable-warning=ExperimentalWarning', '-e', script], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(run.status).toBe(0);
    const out = run.stdout.trim().split('\n');
    expect(out).toHaveLength(5000);
    expect(JSON.parse(out.at(-1)!)).toMatchObject({ level: 'info', msg: 'line', i: 4999 });
  }, 30_000);
});
