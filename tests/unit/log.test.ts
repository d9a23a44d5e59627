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
