import { type Confirmation, isConfirmed } from '../../console/confirm.ts';
import type { ConsoleAction } from '../../console/entry.ts';
import { minuteUtcOrDash as date, minuteUtc } from '../../console/format.ts';
import { checkSuspensionChange, reactivateIntegrator, suspendIntegrator } from '../../domain/integrators/suspension.ts';
import type { OperatorIdentity } from '../../domain/operators/accounts.ts';
import {
  type RotatedCredentials,
  rotateCredentials,
  setIntegratorAcquirer,
  setLinkFieldModes,
  supportSuspensionActor,
} from '../../domain/operators/integrators.ts';
import { readPaymentForSupport } from '../../domain/operators/support.ts';
import type { TransactionRecord } from '../../domain/payments/query.ts';
import { fieldPaths } from '../../schemas/fields.ts';

/** What an integrator's page shows after an action: credentials made now (shown once), a sentence, or a confirm step. */
export interface IntegratorOutcome {
  rotated?: RotatedCredentials & { note: string };
  done?: string;
  /** A payment support looked up, with the reason given (already audited). */
  payment?: { record: TransactionRecord; reason: string };
  confirm?: Confirmation;
}

/** The integrator page's forms, by their `action` field, for the integrator its address names. */
export const integratorActions = (id: string): Record<string, ConsoleAction<IntegratorOutcome, OperatorIdentity>> => ({
  rotate: async (ctx) => {
    const rotated = await rotateCredentials(ctx.app, ctx.identity, id, ctx.field('overlap'), ctx.from);
    const note = rotated.previousValidUntil
      ? `The old API token and JWT secret keep working until ${date(rotated.previousValidUntil)}.`
      : 'The old API token and JWT secret have stopped working.';
    return { rotated: { ...rotated, note: `${note} The old webhook secret signs beside the new one until ${date(rotated.previousWebhookSecretUntil)}.` } };
  },
  acquirer: async (ctx) => {
    const fields = Object.fromEntries(['provider', 'checkout', 'public_key', 'secret_key', 'webhook_secret', 'api_base_url'].map((f) => [f, ctx.field(f)]));
    await setIntegratorAcquirer(ctx.app, ctx.identity, id, fields, ctx.from);
    return { done: 'The acquirer is saved; payments from now on go through it.' };
  },
  payment: async (ctx) => {
    const reason = ctx.field('reason');
    const record = await readPaymentForSupport(ctx.app, ctx.identity, id, { payment_id: ctx.field('payment_id'), reason }, ctx.from);
    return { payment: { record, reason } };
  },
  // Suspend and Reactivate: the first POST checks and shows the consequence; `confirmed=yes` does it (the shell's domain function).
  suspend: async (ctx) => {
    const reason = ctx.field('reason');
    if (!isConfirmed(ctx.field)) {
      const checked = await checkSuspensionChange(ctx.app, id, { suspend: true, reason });
      return { confirm: suspendConfirmation(id, checked.name, checked.reason ?? '') };
    }
    await suspendIntegrator(ctx.app, id, reason, supportSuspensionActor(ctx.identity, id, ctx.from), { refuseUnchanged: true });
    return ctx.seeOther(`/operator/integrators/${id}?done=suspended#status`);
  },
  reactivate: async (ctx) => {
    if (!isConfirmed(ctx.field)) {
      const checked = await checkSuspensionChange(ctx.app, id, { suspend: false });
      return { confirm: reactivateConfirmation(id, checked) };
    }
    await reactivateIntegrator(ctx.app, id, supportSuspensionActor(ctx.identity, id, ctx.from), { refuseUnchanged: true });
    return ctx.seeOther(`/operator/integrators/${id}?done=reactivated#status`);
  },
  'field-modes': async (ctx) => {
    const modes = Object.fromEntries(fieldPaths.map((path) => [path, ctx.field(`mode.${path}`)]));
    await setLinkFieldModes(ctx.app, ctx.identity, id, modes, ctx.from);
    return { done: "The field modes are saved; the integrator's new links start with them." };
  },
});

/** Suspend's consequence for the merchant, its customers and its schedules; what is kept; how it is undone. */
function suspendConfirmation(id: string, name: string, reason: string): Confirmation {
  return {
    title: `Suspend ${name}?`,
    consequences: [
      `${name} stops taking payments at once: its API token and link key answer that the integrator is suspended (ER.01.40), and its payment and checkout pages tell customers the merchant cannot take payments now.`,
      'Its schedules pause: no occurrence, retry or recovery is charged while it is suspended; on reactivation, the missed occurrences of each schedule are charged once, as after downtime.',
      'Nothing is lost: payments already under way still settle, refunds and cancellations still work, callbacks and e-mails are still delivered, and its console users still sign in (under a banner).',
      `Reason (the merchant and other operators read it): ${reason}`,
      'You can reactivate it from this page at any time.',
    ],
    action: 'suspend',
    fields: { reason },
    confirmLabel: `Suspend ${name}`,
    back: { label: 'Keep it active', href: `/operator/integrators/${id}#status` },
  };
}

/** Reactivate's consequence: everything suspension refused works again, and the schedules catch up. */
function reactivateConfirmation(id: string, checked: { name: string; reason: string | null; suspendedAt: Date | null }): Confirmation {
  const since = checked.suspendedAt ? ` (suspended since ${minuteUtc(checked.suspendedAt)}${checked.reason ? `: ${checked.reason}` : ''})` : '';
  return {
    title: `Reactivate ${checked.name}?`,
    consequences: [
      `${checked.name}${since} takes payments again at once: its API token, link key and payment pages work as before.`,
      'Its schedules resume: each schedule that missed occurrences while suspended charges once for them, with the key it always had.',
    ],
    action: 'reactivate',
    fields: {},
    confirmLabel: `Reactivate ${checked.name}`,
    back: { label: 'Keep it suspended', href: `/operator/integrators/${id}#status` },
  };
}

/** The sentence after Suspend or Reactivate's redirect, only while the integrator is still in the state it left. */
export function suspensionDoneText(done: string | null, suspended: boolean | undefined): string | undefined {
  if (done === 'suspended' && suspended === true) return 'The integrator is suspended: it takes no new payments and its schedules are paused.';
  if (done === 'reactivated' && suspended === false) return 'The integrator is active again: it takes payments, and its schedules resume.';
  return undefined;
}
