import { type ConsolePaymentRow, consolePaymentRow } from '../api/presenters/console-payments.ts';
import { type ConsoleCardRow, type ConsoleScheduleRow, consoleCardRow, consoleScheduleRow } from '../api/presenters/console-schedules.ts';
import type { ConsoleIdentity } from '../domain/accounts/sessions.ts';
import { listCardRegistrations } from '../domain/cards/service.ts';
import type { DomainContext } from '../domain/context.ts';
import type { Messages } from '../domain/errors.ts';
import { listTransactions } from '../domain/payments/query.ts';
import { listSchedules } from '../domain/schedules/service.ts';
import { emailFilter } from '../schemas/pagination.ts';
import { parseWith } from '../schemas/parse.ts';

/** How many of each a customer's page lists, newest first; the full lists are a link away. */
export const CUSTOMER_LIST_SIZE = 25;

export interface CustomerPage {
  email: string;
  payments: ConsolePaymentRow[];
  morePayments: boolean;
  cards: ConsoleCardRow[];
  schedules: ConsoleScheduleRow[];
}

/**
 * /console/customer?email=…: one customer of the merchant, known by e-mail (case-insensitive, as
 * the lists' filters compare it): their payments, card registrations and schedules, through the
 * same list services as the API. An address that is not one is refused beside the form.
 */
export async function customerPage(app: DomainContext, identity: ConsoleIdentity, given: string): Promise<{ page?: CustomerPage; messages: Messages }> {
  const parsed = parseWith(emailFilter, given);
  if (!parsed.ok) return { messages: { email: Object.values(parsed.messages).flat() } };
  const integrator = { id: identity.user.integratorId };
  const query = { limit: CUSTOMER_LIST_SIZE, customer_email: parsed.value };
  const [payments, cards, schedules] = await Promise.all([
    listTransactions(app, integrator, query),
    listCardRegistrations(app, integrator, query),
    listSchedules(app, integrator, query),
  ]);
  return {
    page: {
      email: parsed.value,
      payments: payments.items.map(consolePaymentRow),
      morePayments: payments.hasMore,
      cards: cards.items.map(consoleCardRow),
      schedules: schedules.items.map(consoleScheduleRow),
    },
    messages: {},
  };
}
