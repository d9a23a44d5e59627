import { z } from 'zod';
import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { completeCardRegistration } from '../../../domain/cards/service.ts';
import { invalidFields } from '../../../domain/errors.ts';
import { cardSchema, expiryInFuture, parseExpiry } from '../../../schemas/card.ts';
import { issuesToMessages } from '../../../schemas/parse.ts';

/** The hosted registration page's card submission (same origin, JSON; see src/components/CardForm.tsx). */
export const POST = apiEndpoint({
  auth: 'none',
  browser: true,
  idempotent: false,
  body: z.looseObject({}),
  run: async ({ app, params, body, clientIp }) => {
    const parsed = cardSchema.safeParse((body as { card?: unknown }).card ?? {});
    if (!parsed.success) throw invalidFields(issuesToMessages(parsed.error.issues, 'card'));
    const expiry = parseExpiry(parsed.data.expiry)!;
    if (!expiryInFuture(expiry, app.now())) throw invalidFields({ 'card.expiry': ['This card has expired: check the expiry date'] });
    const token = params.token ?? '';
    const result = await completeCardRegistration(
      app,
      token,
      {
        number: parsed.data.number,
        expMonth: expiry.month,
        expYear: expiry.year,
        cvc: parsed.data.cvc,
        holderName: parsed.data.name,
      },
      clientIp,
    );
    return {
      code: result.code,
      data: { reference: result.data.reference, status: result.data.status, redirect_url: result.data.return_url ?? `/register/${encodeURIComponent(token)}` },
    };
  },
});
export const ALL = methodNotAllowed(['POST']);
