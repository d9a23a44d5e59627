import type { Payment } from '../../db/schema.ts';
import type { Locale } from '../../i18n/index.ts';
import type { DomainContext } from '../context.ts';
import { renderEmail } from '../notifications/email/templates.ts';
import { emailViewOf } from '../notifications/email/view.ts';
import { emailContext } from '../notifications/mail.ts';

/** A payment's receipt as the customer's e-mail words it (the same template), as plain text to download. */
export async function subscriberReceipt(app: Pick<DomainContext, 'db'>, payment: Payment, locale: Locale): Promise<string> {
  const view = emailViewOf({ type: 'payment.succeeded', payment });
  const { merchant, item } = await emailContext(app.db, { integratorId: payment.integratorId, view });
  return renderEmail({ type: 'payment.succeeded', view, createdAt: payment.paidAt ?? payment.createdAt, merchant: { ...merchant, locale }, item }).text;
}
