import { postedMethods } from '../../api/link-form.ts';
import type { Integrator } from '../../db/schema.ts';
import { identityActor } from '../../domain/accounts/sessions.ts';
import { changeAcquirer, changeQrExpiry } from '../../domain/integrators/acquirer.ts';
import {
  credentialState,
  parseOverlap,
  ROTATION_OVERLAPS,
  type RotationOverlap,
  rotateApiToken,
  rotateJwtSecret,
  rotateLinkKey,
} from '../../domain/integrators/credentials.ts';
import { changeDefaultCallbackUrl, changeDefaultPaymentMethods, changeSupportEmail } from '../../domain/integrators/profile.ts';
import { findIntegratorById } from '../../domain/integrators/service.ts';
import { rotateWebhookSecret } from '../../domain/notifications/secrets.ts';
import { ROTATION_GRACE_MS } from '../../domain/notifications/signing.ts';
import { sendTestEvent } from '../../domain/notifications/test-event.ts';
import { type Confirmation, isConfirmed } from '../confirm.ts';
import type { ActionContext, ConsoleAction } from '../entry.ts';
import { minuteUtcOrDash as date } from '../format.ts';

/** What the Developers page shows after an action: a secret shown only now, or a sentence. */
export interface DevelopersOutcome {
  shown?: { what: string; value: string; note: string };
  done?: string;
  /** A rotation's confirm step: what stops working, and when. */
  confirm?: Confirmation;
}

type Rotation = 'rotate-token' | 'rotate-secret' | 'rotate-link-key' | 'rotate-webhook';

/**
 * A rotation's consequence in words: who stops working and when (at once, or after the overlap
 * chosen), the replaced value still in its overlap that ends now, that the new secret is shown once.
 */
function rotationConfirmation(action: Rotation, integrator: Integrator, overlap: RotationOverlap | undefined, now: Date): Confirmation {
  const state = credentialState(integrator, now);
  const until = overlap && ROTATION_OVERLAPS[overlap].seconds > 0 ? new Date(now.getTime() + ROTATION_OVERLAPS[overlap].seconds * 1000) : null;
  const later = (what: string, stop: string) =>
    until
      ? `${what} keep working for ${ROTATION_OVERLAPS[overlap!].label} (until ${date(until)}), then ${stop}: put the new one in them before then.`
      : `${what} ${stop} at once.`;
  const lines: Record<Rotation, { title: string; lines: string[]; label: string }> = {
    'rotate-token': {
      title: 'Rotate the API token?',
      lines: [
        later('Integrations using the current token', 'stop working: every API call with it is refused'),
        ...(state.previousTokenValidUntil ? [`The token before it, still accepted until ${date(state.previousTokenValidUntil)}, stops working at once.`] : []),
        'The new token is shown once, on the next page: copy it then.',
      ],
      label: 'Rotate the API token',
    },
    'rotate-secret': {
      title: 'Rotate the JWT secret?',
      lines: [
        later('Schedules your server signs with the current secret', 'are refused'),
        ...(state.previousSecretValidUntil ? [`The secret before it, still accepted until ${date(state.previousSecretValidUntil)}, is refused at once.`] : []),
        'The new secret is shown once, on the next page: copy it then.',
      ],
      label: 'Rotate the JWT secret',
    },
    'rotate-link-key': {
      title: 'Rotate the link key?',
      lines: [
        later('Web pages and apps creating checkouts with the current link key', 'are refused'),
        ...(state.previousLinkKeyValidUntil ? [`The key before it, still accepted until ${date(state.previousLinkKeyValidUntil)}, is refused at once.`] : []),
      ],
      label: 'Rotate the link key',
    },
    'rotate-webhook': {
      title: 'Rotate the webhook secret?',
      lines: [
        `Events are signed with both the current and the new secret until ${date(new Date(now.getTime() + ROTATION_GRACE_MS))}, then with the new one only: a receiver that checks only the current secret starts refusing events then.`,
        'The new secret is shown once, on the next page: copy it then.',
      ],
      label: 'Rotate the webhook secret',
    },
  };
  const chosen = lines[action];
  return {
    title: chosen.title,
    consequences: [...chosen.lines, 'This cannot be undone: the current value cannot be brought back.'],
    action,
    fields: overlap ? { overlap } : {},
    confirmLabel: chosen.label,
    back: { label: 'Keep the current one', href: '/console/developers' },
  };
}

/** A rotation asks first (the confirm step), then rotates when the step comes back confirmed. */
const askFirst =
  (action: Rotation, rotate: ConsoleAction<DevelopersOutcome>): ConsoleAction<DevelopersOutcome> =>
  async (ctx) => {
    if (isConfirmed(ctx.field)) return rotate(ctx);
    const { integrator } = await acting(ctx);
    const overlap = action === 'rotate-webhook' ? undefined : parseOverlap(ctx.field('overlap'));
    return { confirm: rotationConfirmation(action, integrator, overlap, ctx.app.now()) };
  };

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
  'rotate-token': askFirst('rotate-token', rotateCredential('token')),
  'rotate-secret': askFirst('rotate-secret', rotateCredential('secret')),
  'rotate-link-key': askFirst('rotate-link-key', async (ctx) => {
    const { integrator, actor } = await acting(ctx);
    const rotated = await rotateLinkKey(ctx.app, integrator.id, parseOverlap(ctx.field('overlap')), actor);
    return {
      done: rotated.previousValidUntil
        ? `Your link key is rotated (the new one is below). The old key keeps creating checkouts until ${date(rotated.previousValidUntil)}.`
        : 'Your link key is rotated (the new one is below). The old key has stopped working.',
    };
  }),
  'rotate-webhook': askFirst('rotate-webhook', async (ctx) => {
    const { integrator, actor } = await acting(ctx);
    const rotated = await rotateWebhookSecret(ctx.app, integrator, actor);
    return {
      shown: {
        what: 'Your new webhook secret',
        value: rotated.secret,
        note: `Events are signed with both secrets until ${date(rotated.previousValidUntil)}, then with the new one only.`,
      },
    };
  }),
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
  'qr-expiry': async (ctx) => {
    const { integrator, actor } = await acting(ctx);
    const seconds = await changeQrExpiry(ctx.app, integrator.id, ctx.field('qr_expiry_minutes'), actor);
    return {
      done:
        seconds === null
          ? 'QR Ph codes now expire after 30 minutes, PayMongo’s default.'
          : `QR Ph codes now expire ${seconds / 60} ${seconds === 60 ? 'minute' : 'minutes'} after the customer chooses QR Ph.`,
    };
  },
  'test-event': async (ctx) => {
    const { integrator, actor } = await acting(ctx);
    const sent = await sendTestEvent(ctx.app, integrator, actor);
    return { done: `Test event ${sent.id} is queued for ${sent.callbackUrl}. Reload this page to see how its delivery went.` };
  },
};
