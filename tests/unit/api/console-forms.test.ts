import { describe, expect, it } from 'vitest';
import { fieldInWords, generalMessages } from '../../../src/api/console-forms.ts';

describe('console refusals › in words', () => {
  it('names a field the form has no input for in words, never by its API name', () => {
    const lines = generalMessages({ transaction_id: ['must start with txn_'], success_url: ['must be an http(s) URL'] });
    expect(lines).toEqual(['The payment must start with txn_', 'Success URL must be an http(s) URL']);
    expect(lines.join(' ')).not.toMatch(/transaction_id|success_url/);
  });

  it('leaves out the messages shown beside their inputs, and keeps a message about the whole request as it is', () => {
    expect(generalMessages({ amount: ['must be more'], '(request)': ['Try again later.'] }, ['amount'])).toEqual(['Try again later.']);
  });

  it('uses the form’s own label first', () => {
    expect(generalMessages({ per_day: ['must be a number'] }, [], { per_day: 'Daily refund limit' })).toEqual(['Daily refund limit must be a number']);
  });

  it('keeps a message that is a sentence of its own after a colon', () => {
    expect(generalMessages({ nonce: ['Reload the page.'] })).toEqual(['The form’s one-time code: Reload the page.']);
  });

  it('spells out an unknown name: dots and underscores as spaces, URL and ID in capitals', () => {
    expect(fieldInWords('labels.customer.first_name')).toBe('Labels customer first name');
    expect(fieldInWords('callback_id')).toBe('Callback ID');
    expect(fieldInWords('api_base_url')).toBe('API base URL');
  });
});
