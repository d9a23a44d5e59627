import { consoleCardRow } from '../../api/presenters/console-schedules.ts';
import type { CardRegistration } from '../../db/schema.ts';
import { consoleAction } from '../../domain/accounts/acting.ts';
import { deleteCardRegistration, getCardRegistration } from '../../domain/cards/service.ts';
import type { DomainContext } from '../../domain/context.ts';
import { formatMoney } from '../../domain/money.ts';
import { listSchedules } from '../../domain/schedules/service.ts';
import { type Confirmation, isConfirmed } from '../confirm.ts';
import type { ConsoleAction } from '../entry.ts';

/** What the card registration page shows after a form: the confirm step of Delete. */
export type CardRegistrationOutcome = { confirm: Confirmation };

/** The schedules a confirm step names one by one; more are counted. */
const NAMED_SCHEDULES = 10;

/**
 * A card registration page's form, Delete (asked first): the same domain call as
 * DELETE /api/v1/card-registration, audited with the user. Owners and staff alike, as cancelling a
 * schedule: it moves no money and only stops charges.
 */
export function cardRegistrationActions(reference: string): {
  actions: Record<string, ConsoleAction<CardRegistrationOutcome>>;
  otherwise: ConsoleAction<CardRegistrationOutcome>;
} {
  const path = `/console/card-registrations/${reference}`;
  return {
    actions: {
      delete: async ({ app, identity, field, from, seeOther }) => {
        const action = await consoleAction(app, identity, from);
        if (!isConfirmed(field)) {
          const registration = await getCardRegistration(app, action.integrator, reference);
          if (registration.status === 'deleted') return seeOther(path);
          return { confirm: await deleteConfirmation(app, registration, path) };
        }
        await deleteCardRegistration(app, action.integrator, reference, { actor: action.actor });
        return seeOther(`${path}?done=deleted`);
      },
    },
    // A form naming no action changes nothing and shows the page again.
    otherwise: async () => undefined as never,
  };
}

/** Delete's consequence: the card can no longer be charged, the schedules it cancels by name, a new registration needed, final. */
async function deleteConfirmation(app: DomainContext, r: CardRegistration, path: string): Promise<Confirmation> {
  const running = await listSchedules(app, { id: r.integratorId }, { limit: 100, card_registration_reference: r.reference });
  const open = running.items.filter(({ schedule: s }) => s.status !== 'cancelled').map(({ schedule: s }) => s);
  const named = open
    .slice(0, NAMED_SCHEDULES)
    .map((s) => `${s.id} (${formatMoney(s.amountMinor, s.currency)} ${s.currency}${s.status === 'suspended' ? ', suspended' : ''})`);
  const more = open.length > named.length ? ` and ${open.length - named.length} more` : running.hasMore ? ' and more' : '';
  const card = consoleCardRow(r).card;
  const schedulesLine =
    open.length === 0
      ? 'No schedule charges it now, so none is cancelled.'
      : open.length === 1 && !running.hasMore
        ? `The schedule charging it is cancelled: ${named[0]}. It charges nothing more; a charge already in progress finishes.`
        : `The schedules charging it are cancelled: ${named.join('; ')}${more}. They charge nothing more; a charge already in progress finishes.`;
  return {
    title: 'Delete this card registration?',
    consequences: [
      r.status === 'pending'
        ? 'The customer’s registration link stops working.'
        : r.collection === 'pay_link'
          ? 'No more payment links are e-mailed for it.'
          : `The card ${card} can no longer be charged: paylink forgets it and asks the acquirer to remove it.`,
      schedulesLine,
      'Payments already made stay as they are; nothing is refunded.',
      open.length === 0
        ? 'Your integration is notified that it is deleted.'
        : 'Your integration is notified that it is deleted, and of each cancelled schedule.',
      'This cannot be undone: to charge this customer again, they must register their card again through a new registration link.',
    ],
    action: 'delete',
    fields: {},
    confirmLabel: 'Delete the card registration',
    back: { label: 'Keep the card registration', href: path },
  };
}

/** The sentence after the redirect (and its status code, for support), only once it is deleted. */
export function cardRegistrationDoneText(done: string | null, status: string | undefined): { text: string; code: string } | undefined {
  if (done === 'deleted' && status === 'deleted')
    return { text: 'The card registration is deleted; the schedules that charged it are cancelled.', code: 'OK.11.20' };
  return undefined;
}
