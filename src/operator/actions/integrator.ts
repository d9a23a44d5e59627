import type { ConsoleAction } from '../../console/entry.ts';
import { minuteUtcOrDash as date } from '../../console/format.ts';
import type { OperatorIdentity } from '../../domain/operators/accounts.ts';
import { type RotatedCredentials, rotateCredentials, setIntegratorAcquirer, setLinkFieldModes } from '../../domain/operators/integrators.ts';
import { readPaymentForSupport } from '../../domain/operators/support.ts';
import type { TransactionRecord } from '../../domain/payments/query.ts';
import { fieldPaths } from '../../schemas/fields.ts';

/** What an integrator's page shows after an action: credentials made now (shown once), or a sentence. */
export interface IntegratorOutcome {
  rotated?: RotatedCredentials & { note: string };
  done?: string;
  /** A payment support looked up, with the reason given (already audited). */
  payment?: { record: TransactionRecord; reason: string };
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
  'field-modes': async (ctx) => {
    const modes = Object.fromEntries(fieldPaths.map((path) => [path, ctx.field(`mode.${path}`)]));
    await setLinkFieldModes(ctx.app, ctx.identity, id, modes, ctx.from);
    return { done: "The field modes are saved; the integrator's new links start with them." };
  },
});
