import { and, eq } from 'drizzle-orm';
import type { OutboxEvent } from '../../db/schema.ts';
import { links, payments, schedules } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import type { EmailView } from '../notifications/email/view.ts';
import { subscriberUrl } from './access.ts';
import { SUBSCRIBER_LINK_EVENT } from './request.ts';

/**
 * The link to the customer's subscriptions page an e-mail carries, signed when it is sent (so a
 * retried e-mail gets a fresh one and no token is ever stored): the page-link e-mail itself, every
 * e-mail about a subscription's schedule, and the receipt of a subscription link's first payment.
 */
export async function manageUrlFor(
  app: Pick<DomainContext, 'db' | 'subscriberMac' | 'now' | 'origin'>,
  event: Pick<OutboxEvent, 'type' | 'integratorId' | 'emailTo'>,
  view: Pick<EmailView, 'scheduleReference' | 'transactionId'>,
): Promise<string | undefined> {
  const to = event.emailTo;
  if (!to) return undefined;
  if (event.type === SUBSCRIBER_LINK_EVENT) return subscriberUrl(app, event.integratorId, to);
  if (view.scheduleReference) {
    const [row] = await app.db
      .select({ linkId: schedules.linkId })
      .from(schedules)
      .where(and(eq(schedules.id, view.scheduleReference), eq(schedules.integratorId, event.integratorId)));
    return row?.linkId ? subscriberUrl(app, event.integratorId, to) : undefined;
  }
  if (view.transactionId) {
    const [row] = await app.db
      .select({ subscription: links.subscription })
      .from(payments)
      .innerJoin(links, eq(links.id, payments.linkId))
      .where(and(eq(payments.id, view.transactionId), eq(payments.integratorId, event.integratorId)));
    return row?.subscription ? subscriberUrl(app, event.integratorId, to) : undefined;
  }
  return undefined;
}
