import { foundOrUndefined } from '../api/console-forms.ts';
import { type ConsolePaymentRow, consolePaymentRow, consoleTime } from '../api/presenters/console-payments.ts';
import { type ConsoleCardRow, type ConsoleScheduleRow, consoleCardRow, consoleScheduleRow } from '../api/presenters/console-schedules.ts';
import type { CardRegistration, Integrator } from '../db/schema.ts';
import { getCardRegistration } from '../domain/cards/service.ts';
import type { DomainContext } from '../domain/context.ts';
import { listTransactions } from '../domain/payments/query.ts';
import { listSchedules } from '../domain/schedules/service.ts';
import { cardBrandName } from '../schemas/card-rules.ts';
import { type TimeInOffset, timeInOffset } from './format.ts';

/** How many schedules and payments the page lists, newest first (it says when there are more). */
const CARD_PAGE_LIST_SIZE = 25;

export interface CardRegistrationPage {
  /** The page's heading: the card's brand and last 4, or what stands for them. */
  title: string;
  row: ConsoleCardRow;
  registration: CardRegistration;
  statusWords: string;
  /** Where the card is kept, when the stored token says so; undefined when it does not. */
  keptAt: string | undefined;
  activatedAt: string | undefined;
  deletedAt: string | undefined;
  schedules: Array<ConsoleScheduleRow & { nextCharge: TimeInOffset | undefined }>;
  moreSchedules: boolean;
  payments: ConsolePaymentRow[];
  morePayments: boolean;
}

/**
 * /console/card-registrations/{reference}: the registration, the schedules charging it and its
 * payments, through the same services as the API. Another integrator's is undefined (the page's 404).
 */
export async function cardRegistrationPage(
  app: DomainContext,
  integrator: Pick<Integrator, 'id'>,
  reference: string,
): Promise<CardRegistrationPage | undefined> {
  const registration = await foundOrUndefined(() => getCardRegistration(app, integrator, reference));
  if (!registration) return undefined;
  const query = { limit: CARD_PAGE_LIST_SIZE, card_registration_reference: registration.reference };
  const [schedules, payments] = await Promise.all([listSchedules(app, integrator, query), listTransactions(app, integrator, query)]);
  return {
    title: cardTitle(registration),
    row: consoleCardRow(registration),
    registration,
    statusWords: cardStatusWords(registration, app.now()),
    keptAt: keptAt(registration),
    activatedAt: registration.activatedAt ? consoleTime(registration.activatedAt) : undefined,
    deletedAt: registration.deletedAt ? consoleTime(registration.deletedAt) : undefined,
    // Next charges in each schedule's own offset, as the schedules list and page show them.
    schedules: schedules.items.map((r) => ({
      ...consoleScheduleRow(r),
      nextCharge: r.schedule.status === 'active' && r.schedule.nextRunAt ? timeInOffset(r.schedule.nextRunAt, r.schedule.timeOffset) : undefined,
    })),
    moreSchedules: schedules.hasMore,
    payments: payments.items.map(consolePaymentRow),
    morePayments: payments.hasMore,
  };
}

function cardTitle(r: CardRegistration): string {
  if (r.collection === 'pay_link') return 'Pay by link';
  if (r.brand || r.last4) return `${r.brand ? cardBrandName(r.brand) : 'Card'} ···· ${r.last4 ?? ''}`.trim();
  return r.status === 'pending' ? 'Card not registered yet' : 'Card registration';
}

/** The registration's state as a sentence a merchant reads without knowing the API's words. */
function cardStatusWords(r: CardRegistration, now: Date): string {
  // Its schedules were cancelled with it; the page lists them with their state.
  if (r.status === 'deleted') return 'Deleted: it can no longer be charged.';
  if (r.status === 'active') {
    return r.collection === 'pay_link'
      ? 'Active: its schedules e-mail the customer a payment link for each charge.'
      : 'Active: the card is saved and schedules can charge it.';
  }
  if (r.expiresAt && r.expiresAt.getTime() <= now.getTime())
    return `Not completed: the registration link expired on ${consoleTime(r.expiresAt)} before the customer used it.`;
  return `Waiting for the customer to register the card (the registration link works until ${consoleTime(r.expiresAt)}).`;
}

/** The acquirer, told by the shape of the token it gave (Stripe's payment methods, the sandbox's vault). */
function keptAt(r: CardRegistration): string | undefined {
  if (r.collection === 'pay_link') return 'No card is kept: the customer pays each charge through a link.';
  if (!r.cardToken) return undefined;
  const customer = r.cardCustomer ? `, on its customer ${r.cardCustomer}` : '';
  // After a deletion the card is removed there in the background (src/domain/cards/forget.ts).
  const gone = r.status === 'deleted' && r.forgetNextAt ? ' (being removed there)' : '';
  if (r.cardToken.startsWith('pm_')) return `Stripe${customer}${gone}`;
  if (r.cardToken.startsWith('tok_')) return `The sandbox (test mode: no real card)${gone}`;
  return undefined;
}
