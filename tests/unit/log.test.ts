import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { describe, expect, it } from 'vitest';
import { createLogger, redact } from '../../src/log.ts';

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
