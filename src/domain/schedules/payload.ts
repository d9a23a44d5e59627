import type { z } from 'zod';
import { emptyMessages, parseWith } from '../../schemas/parse.ts';
import { scheduleDataSchema } from '../../schemas/schedule.ts';
import { findUnstorableText, UNSTORABLE_TEXT_MESSAGE } from '../../schemas/text.ts';
import { isUuid } from '../cards/service.ts';
import { invalidFields, type Messages } from '../errors.ts';
import { isCurrency, MoneyError, parseAmount } from '../money.ts';
import { callbackUrlProblem } from '../notifications/callback-url.ts';
import { nextRunAfter, type ParsedRecurrence, parseRecurrence } from './recurrence.ts';

/** Spec rule 1: an unknown, inactive or foreign card reference reads the same: it does not exist. */
export const CARD_REFERENCE_MISSING = 'Card registration reference does not exist';

/** A schedule as POST /schedule asks for it, every field checked: what `createSchedule` stores. */
export interface SchedulePlan {
  data: z.infer<typeof scheduleDataSchema>;
  amountMinor: bigint;
  recurrence: ParsedRecurrence;
  /** The first occurrence after `now`; null when the recurrence has none left. */
  nextRunAt: Date | null;
}

/**
 * The signed JWT's `data` claim as a schedule: the spec's shape, the money, the recurrence and the
 * callback URL, all checked at once. Pure: no database, no clock but `now`. Throws ER.02.30 naming
 * every bad field (`data.payment.amount`, `data.schedule.minute`, `reference`, …).
 */
export function parseSchedulePayload(claimsData: unknown, opts: { now: Date; minIntervalSeconds: number; allowPrivateCallbacks: boolean }): SchedulePlan {
  if (claimsData === undefined || claimsData === null || typeof claimsData !== 'object') {
    throw invalidFields({ data: ['is required: the JWT must carry the schedule as its `data` claim (spec §2.2)'] });
  }
  const unstorable = findUnstorableText(claimsData, 'data');
  if (unstorable !== undefined) throw invalidFields({ [unstorable]: [UNSTORABLE_TEXT_MESSAGE] });
  const parsed = parseWith(scheduleDataSchema, claimsData, 'data');
  const messages: Messages = parsed.ok ? emptyMessages() : parsed.messages;
  // Spec rule 1 (and the 422 sample): a card reference that is not usable is `messages.reference`.
  const rawReference = (claimsData as { credit_card?: { reference?: unknown } }).credit_card?.reference;
  if (typeof rawReference === 'string' && !isUuid(rawReference)) messages.reference = [CARD_REFERENCE_MISSING];
  if (!parsed.ok) throw invalidFields(messages);
  const data = parsed.value;
  const callbackProblem = data.route?.callback_url && callbackUrlProblem(data.route.callback_url, opts.allowPrivateCallbacks);
  if (callbackProblem) messages['data.route.callback_url'] = [callbackProblem];

  let amountMinor: bigint | undefined;
  if (!isCurrency(data.payment.currency)) messages['data.payment.currency'] = ['is not a supported ISO 4217 currency code'];
  else {
    try {
      amountMinor = parseAmount(data.payment.amount, data.payment.currency).minor;
    } catch (error) {
      if (!(error instanceof MoneyError)) throw error;
      messages['data.payment.amount'] = [error.message];
    }
  }
  const recurrence = parseRecurrence(data.schedule, data.time_offset, {
    minIntervalSeconds: opts.minIntervalSeconds,
    now: opts.now,
    prefix: { schedule: 'data.schedule.', timeOffset: 'data.time_offset' },
  });
  if (!recurrence.ok) for (const [path, list] of Object.entries(recurrence.messages)) messages[path] = list;
  if (Object.keys(messages).length > 0 || !recurrence.ok || amountMinor === undefined) throw invalidFields(messages);
  return { data, amountMinor, recurrence: recurrence.value, nextRunAt: nextRunAfter({ ...recurrence.value, every: 1, anchorAt: null }, opts.now) };
}
