import type { ConsoleRefusal } from '../../api/console-forms.ts';
import { emptyRefundForm, type RefundForm, readRefundForm, refundRequestOf } from '../../api/console-forms.ts';
import { paymentMethodLabel } from '../../api/presenters/console-payments.ts';
import { consoleAction } from '../../domain/accounts/acting.ts';
import { invalidFields } from '../../domain/errors.ts';
import { formatMoney } from '../../domain/money.ts';
import { resendEvent } from '../../domain/notifications/events.ts';
import { resendReceipt } from '../../domain/notifications/receipt-email.ts';
import { findTransaction } from '../../domain/payments/query.ts';
import { previewRefund } from '../../domain/refunds/preview.ts';
import { refundPayment } from '../../domain/refunds/service.ts';
import { type Confirmation, isConfirmed, isEditing } from '../confirm.ts';
import type { ActionContext, ConsoleAction } from '../entry.ts';

/** What the payment page shows after a refund form: its confirm step, or the form again to change it. */
export type PaymentActionResult = { confirm: Confirmation } | { edit: RefundForm };

/** The amount the confirm step stated, in minor units, carried back so the refund is refused if it would now be another. */
const CONFIRMED_AMOUNT_FIELD = 'confirmed_minor';

/** The payment's integrator and actor, once the payment is known to be theirs (else a 404 refusal). */
async function acting({ app, identity, from }: ActionContext, id: string) {
  await findTransaction(app, { id: identity.user.integratorId }, id);
  return consoleAction(app, identity, from);
}

function confirmedMinor(value: string): bigint {
  if (!/^\d{1,16}$/.test(value)) throw invalidFields({ amount: ['was not confirmed: review the refund again'] });
  return BigInt(value);
}

/**
 * A payment page's forms: Resend (a callback of this payment), Resend receipt, and Refund, in two steps: the form
 * (action `refund`) shows the confirm step with the refund's consequence, every rule already
 * checked; the confirm step's form (`confirmed=yes`) makes it, checking everything again. Both
 * end in a redirect that the page reads back from the payment.
 */
export function paymentActions(id: string): { actions: Record<string, ConsoleAction<PaymentActionResult>> } {
  return {
    actions: {
      resend: async (ctx) => {
        const action = await acting(ctx, id);
        const eventId = ctx.field('event');
        await resendEvent(ctx.app, action.integrator, eventId, { actor: action.actor, transactionId: id });
        return ctx.seeOther(`/console/payments/${id}?resent=${encodeURIComponent(eventId)}`);
      },
      'resend-receipt': async (ctx) => {
        const action = await acting(ctx, id);
        const sent = await resendReceipt(ctx.app, action.integrator, id, action.actor);
        return ctx.seeOther(`/console/payments/${id}?receipt=${encodeURIComponent(sent.to)}`);
      },
      refund: async (ctx) => {
        const form = readRefundForm(ctx.field);
        if (isEditing(ctx.field)) return { edit: form };
        const action = await acting(ctx, id);
        const request = { ...refundRequestOf(form, id), actor: action.actor };
        if (!isConfirmed(ctx.field)) return { confirm: refundConfirmation(form, await previewRefund(ctx.app, action.integrator, request)) };
        // The form's nonce stays with it, so sending it again is the same refund.
        const outcome = await refundPayment(ctx.app, action.integrator, {
          ...request,
          confirmedAmountMinor: confirmedMinor(ctx.field(CONFIRMED_AMOUNT_FIELD)),
        });
        return ctx.seeOther(`/console/payments/${id}?refund=${encodeURIComponent(outcome.refund.id)}`);
      },
    },
  };
}

/** The refund's consequence in words: how much, in what currency, back to which method, what stays refundable; it cannot be undone. */
function refundConfirmation(form: RefundForm, preview: Awaited<ReturnType<typeof previewRefund>>): Confirmation {
  const { payment: p, amountMinor, remainingAfterMinor } = preview;
  const amount = formatMoney(amountMinor, p.currency);
  const whole = preview.type === 'full' ? ' (the whole remaining amount)' : '';
  return {
    title: `Refund ${amount}?`,
    consequences: [
      `${amount} ${p.currency}${whole} goes back to the customer’s ${paymentMethodLabel(p)}.`,
      remainingAfterMinor > 0n
        ? `${formatMoney(remainingAfterMinor, p.currency)} ${p.currency} can still be refunded after it.`
        : 'Nothing more can be refunded on this payment after it.',
      form.notify ? 'The customer is e-mailed about it.' : 'The customer is not e-mailed about it.',
      `Reason: ${form.reason.trim()}`,
      'A refund cannot be undone.',
    ],
    action: 'refund',
    fields: {
      kind: form.kind,
      amount: form.amount,
      reason: form.reason,
      ...(form.notify ? { notify: 'yes' } : {}),
      nonce: form.nonce,
      [CONFIRMED_AMOUNT_FIELD]: amountMinor.toString(),
    },
    confirmLabel: `Refund ${amount}`,
    back: { label: 'Change the refund', edit: true },
  };
}

type PaymentView = { form: FormData | undefined; action: string; field(name: string): string; result?: PaymentActionResult };

/** What the payment page shows of a refund: its form, and its confirm step when the form was just sent. */
export function refundStepAfter(view: PaymentView, refusal: ConsoleRefusal | undefined): { refundForm: RefundForm; confirmation?: Confirmation } {
  const confirmation = view.result && 'confirm' in view.result ? view.result.confirm : undefined;
  return { refundForm: refundFormAfter(view, refusal), confirmation };
}

/** The refund form the page shows: the one sent back to change, or again after a refusal (an empty one on GET, after Resend or after a confirm step). */
function refundFormAfter(view: PaymentView, refusal: ConsoleRefusal | undefined): RefundForm {
  if (view.result && 'edit' in view.result) return view.result.edit;
  if (!view.form || view.action === 'resend' || view.action === 'resend-receipt' || !refusal) return emptyRefundForm();
  const sent = readRefundForm(view.field);
  if (refusal.code === 'ER.02.40') {
    // This form's nonce already made a refund of another amount (it was sent, then changed after Back).
    refusal.messages = { '(request)': ['This form was already sent for another refund. The form below is a new one: fill it in again to refund more.'] };
    return { ...emptyRefundForm(), notify: sent.notify };
  }
  return refusal.messages.nonce ? { ...sent, nonce: emptyRefundForm().nonce } : sent;
}
