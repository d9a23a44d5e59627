import { describe, expect, it } from 'vitest';
import { pageLink, paymentsForm } from '../../../src/api/console-lists.ts';
import { csvField } from '../../../src/api/presenters/console-payments.ts';

describe('console CSV › csvField', () => {
  it('leaves a plain value as it is and writes a missing one as an empty field', () => {
    expect(csvField('order-42')).toBe('order-42');
    expect(csvField(null)).toBe('');
  });

  it('quotes a value holding a comma, a quote or a line break, doubling its quotes (RFC 4180)', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
  });

  it('defuses a cell a spreadsheet would run as a formula: = + - @ tab or carriage return first get a leading apostrophe', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('+63 917')).toBe("'+63 917");
    expect(csvField('-5')).toBe("'-5");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\t=cmd')).toBe("'\t=cmd");
    expect(csvField('=HYPERLINK("x","y")')).toBe(`"'=HYPERLINK(""x"",""y"")"`);
    expect(csvField('a=b')).toBe('a=b');
  });
});

describe('console lists › the payments form', () => {
  const form = (query: string) => paymentsForm(new URL(`http://x/console/payments?${query}`));

  it('reads the search box as a transaction id, an e-mail or a merchant reference', () => {
    const id = `txn_${'a'.repeat(32)}`;
    expect(form(`q=${id}`).query).toMatchObject({ transaction_id: id });
    expect(form('q=Ana%40Example.com').query).toMatchObject({ customer_email: 'Ana@Example.com' });
    expect(form('q=order-7').query).toMatchObject({ merchant_reference_id: 'order-7' });
  });

  it('takes From and To as whole UTC days, To included', () => {
    expect(form('from=2026-03-05&to=2026-03-05').query).toMatchObject({
      created_gte: new Date('2026-03-05T00:00:00Z'),
      created_lt: new Date('2026-03-06T00:00:00Z'),
    });
    expect(form('from=2026-03-06&to=2026-03-05').messages.to).toEqual(['must not be before From']);
    expect(form('from=5 March').messages.from).toEqual(['must be a date such as 2026-03-31']);
  });

  it('keeps the filters in the Older and Newer links, with one cursor', () => {
    expect(pageLink('/console/payments', { q: 'a b', status: '', after: 'old' }, { before: 'txn_1' })).toBe('/console/payments?q=a+b&before=txn_1');
  });
});
