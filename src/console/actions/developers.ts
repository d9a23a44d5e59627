import { postedMethods } from '../../api/link-form.ts';
import { identityActor } from '../../domain/accounts/sessions.ts';
import { changeAcquirer } from '../../domain/integrators/acquirer.ts';
import { parseOverlap, rotateApiToken, rotateJwtSecret, rotateLinkKey } from '../../domain/integrators/credentials.ts';
import { changeDefaultCallbackUrl, changeDefaultPaymentMethods, changeSupportEmail } from '../../domain/integrators/profile.ts';
import { findIntegratorById } from '../../domain/integrators/service.ts';
import { rotateWebhookSecret } from '../../domain/notifications/secrets.ts';
import { sendTestEvent } from '../../domain/notifications/test-event.ts';
import type { ActionContext, ConsoleAction } from '../entry.ts';
import { minuteUtcOrDash as date } from '../format.ts';

/** What the Developers page shows after an action: a secret shown only now, or a sentence. */
export interface DevelopersOutcome {
  shown?: { what: string; value: string; note: string };
  done?: string;
}

/** The account's integrator and the actor to audit; an owner's session always has one. */
async function acting({ app, identity, from }: ActionContext) {
  const integrator = await findIntegratorById(app.db, identity.user.integratorId);
  if (!integrator) throw new Error('invariant: a console session names an integrator that does not exist');
  return { integrator, actor: identityActor(identity, from) };
}

const rotateCredential =
  (kind: 'token' | 'secret'): ConsoleAction<DevelopersOutcome> =>
  async (ctx) => {
    const { integrator, actor } = await acting(ctx);
    const overlap = parseOverlap(ctx.field('overlap'));
    const rotated =
      kind === 'token' ? await rotateApiToken(ctx.app, integrator.id, overlap, actor) : await rotateJwtSecret(ctx.app, integrator.id, overlap, actor);
    const old = kind === 'token' ? 'The old token' : 'The old secret';
    return {
      shown: {
        what: kind === 'token' ? 'Your new API token' : 'Your new JWT secret',
        value: rotated.value,
        note: rotated.previousValidUntil ? `${old} keeps working until ${date(rotated.previousValidUntil)}.` : `${old} has stopped working.`,
      },
    };
  };

/** The Developers page's forms, by their `action` field (owners only). */
export const developersActions: Record<string, ConsoleAction<DevelopersOutcome>> = {
  'rotate-token': rotateCredential('token'),
  'rotate-secret': rotateCredential('secret'),
  'rotate-link-key': async (ctx) => {
    const { integrator, actor } = await acting(ctx);
    const rotated = await rotateLinkKey(ctx.app, integrator.id, parseOverlap(ctx.field('overlap')), actor);
    return {
      done: rotated.previousValidUntil
        ? `Your link key is rotated (the new one is below). The old key keeps creating checkouts until ${date(rotated.previousValidUntil)}.`
        : 'Your link key is rotated (the new one is below). The old key has stopped working.',
    };
  },
  'rotate-webhook': async (ctx) => {
    const { integrator, actor } = await acting(ctx);
    const rotated = await rotateWebhookSecret(ctx.app, integrator, actor);
    return {
      shown: {
        what: 'Your new webhook secret',
        value: rotated.secret,
        note: `Events are signed with both secrets until ${date(rotated.previousValidUntil)}, then with the new one only.`,
      },
    };
  },
  'callback-url': async (ctx) => {
    const { integrator, actor } = await acting(ctx);
    const value = ctx.field('default_callback_url');
    await changeDefaultCallbackUrl(ctx.app, integrator, value, actor);
    return {
      done: value.trim() ? 'The default callback URL is saved.' : 'The default callback URL is cleared: events without their own callback URL are not sent.',
    };
  },
  acquirer: async (ctx) => {
    const { integrator, actor } = await acting(ctx);
    const fields = ['provider', 'public_key', 'secret_key', 'webhook_secret', 'checkout'] as const;
    const saved = await changeAcquirer(ctx.app, integrator.id, Object.fromEntries(fields.map((name) => [name, ctx.field(name)])), actor);
    return {
      done:
        saved.provider === 'sandbox'
          ? 'Payments now go through the sandbox (test mode).'
          : `Payments now go through ${saved.provider === 'paymongo' ? 'PayMongo' : 'Stripe'}.`,
    };
  },
  'support-email': async (ctx) => {
    const { integrator, actor } = await acting(ctx);
    const value = ctx.field('support_email');
    await changeSupportEmail(ctx.app, integrator, value, actor);
    return {
      done: value.trim()
        ? 'The support e-mail is saved: payment pages show it and customer e-mails reply to it.'
        : 'The support e-mail is cleared: customer e-mails reply to the account e-mail.',
    };
  },
  'payment-methods': async (ctx) => {
    const { integrator, actor } = await acting(ctx);
    const chosen = ctx.field('methods_mode') === 'chosen' ? postedMethods(ctx.form) : null;
    await changeDefaultPaymentMethods(ctx.app, integrator, chosen, actor);
    return {
      done: chosen
        ? 'The default payment methods are saved: links that name none offer them now.'
        : 'Links that name no methods now offer every method your acquirer takes.',
    };
  },
  'test-event': async (ctx) => {
    const { integrator, actor } = await acting(ctx);
    const sent = await sendTestEvent(ctx.app, integrator, actor);
    return { done: `Test event ${sent.id} is queued for ${sent.callbackUrl}. Reload this page to see how its delivery went.` };
  },
};
