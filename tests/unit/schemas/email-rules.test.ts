import { describe, expect, it } from 'vitest';
import { isDeliverableAddress } from '../../../src/domain/notifications/mail.ts';
import { customerFieldError } from '../../../src/schemas/checkout-rules.ts';
import { EMAIL_MESSAGE, isEmailAddress } from '../../../src/schemas/email-rules.ts';

const sendable = ['juan@example.com', "o'brien+receipts@mail.example.ph", 'a.b-c_d@sub-domain.example.co', `${'a'.repeat(64)}@${'b'.repeat(180)}.com`];
const unsendable = [
  'juan@example.com\uFFFD',
  'ju\uFFFDan@example.com',
  'josé@example.com',
  'juan@exämple.com',
  'juan@localhost',
  'juan@@example.com',
  '.juan@example.com',
  'juan..dela@example.com',
  'juan dela@example.com',
  'juan@example.c',
  '"juan"@example.com',
  `${'a'.repeat(64)}@${'b'.repeat(190)}.com`,
];

describe('e-mail rule', () => {
  it.each(sendable)('takes %s, as the mailer does', (address) => {
    expect(isEmailAddress(address)).toBe(true);
    expect(isDeliverableAddress(address)).toBe(true);
    expect(customerFieldError('customer.contact.email', address)).toBeUndefined();
  });

  it.each(unsendable)('refuses %j, as the mailer does, in one set of words', (address) => {
    expect(isEmailAddress(address)).toBe(false);
    expect(isDeliverableAddress(address)).toBe(false);
    expect(customerFieldError('customer.contact.email', address)).toBe(address.length > 254 ? 'Must be at most 254 characters' : EMAIL_MESSAGE);
  });
});
