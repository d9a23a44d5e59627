import type { ConsoleRefusal } from '../../api/console-forms.ts';
import { emptyRefundForm, type RefundForm, readRefundForm, refundRequestOf } from '../../api/console-forms.ts';
import { consoleAction } from '../../domain/accounts/acting.ts';
import { resendEvent } from '../../domain/notifications/events.ts';
import { findTransaction } from '../../domain/payments/query.ts';
import { refundPayment } from '../../domain/refunds/service.ts';
import type { ActionContext, ConsoleAction } from '../entry.ts';

/** The payment's integrator and actor, once the payment is known to be theirs (else a 404 refusal). */
async function acting({ app, identity, from }: ActionContext, id: string) {
  await findTransaction(app, { id: identity.user.integratorId }, id);
  return consoleAction(app, identity, from);
}

/**
 * A payment page's forms: Resend (a callback of this payment) and Refund (the form without an
 * action of its own). Both end in a redirect that the page reads back from the payment.
 */
export function paymentActions(id: string): { actions: Record<string, ConsoleAction<never>>; otherwise: ConsoleAction<never> } {
  return {
    actions: {
      resend: async (ctx) => {
        const action = await acting(ctx, id);
        const eventId = ctx.field('event');
        await resendEvent(ctx.app, action.integrator, eventId, { actor: action.actor, transactionId: id });
        return ctx.seeOther(`/console/payments/${id}?resent=${encodeURIComponent(eventId)}`);
      },
    },
    otherwise: async (ctx) => {
      const action = await acting(ctx, id);
      // The form's nonce stays with it, so sending it again is the same refund.
      const outcome = await refundPayment(ctx.app, action.integrator, { ...refundRequestOf(readRefundForm(ctx.field), id), actor: action.actor });
      return ctx.seeOther(`/console/payments/${id}?refund=${encodeURIComponent(outcome.refund.id)}`);
    },
  };
}

/** The refund form the page shows again after a refusal (an empty one on GET or after Resend). */
export function refundFormAfter(
  view: { form: FormData | undefined; action: string; field(name: string): string },
  refusal: ConsoleRefusal | undefined,
): RefundForm {
  if (!view.form || view.action === 'resend' || !refusal) return emptyRefundForm();
  const sent = readRefundForm(view.field);
  if (refusal.code === 'ER.02.40') {
    // This form's nonce already made a refund of another amount (it was sent, then changed after Back).
    refusal.messages = { '(request)': ['This form was already sent for another refund. The form below is a new one: fill it in again to refund more.'] };
    return { ...emptyRefundForm(), notify: sent.notify };
  }
  return refusal.messages.nonce ? { ...sent, nonce: emptyRefundForm().nonce } : sent;
}
