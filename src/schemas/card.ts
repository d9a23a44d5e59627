import * as z from 'zod/mini';
import { type CardField, type CardValues, cardDigits, cardRules } from './card-rules.ts';

/**
 * Card entry as the browser sends it: the server's zod/mini schema, built from the very rule
 * functions the card island runs (card-rules.ts). The server then checks the expiry against its
 * own clock and the acquirer validates the card once more. Card data goes only to the acquirer:
 * never to logs or paylink's tables.
 */
export * from './card-rules.ts';

const ruled = (field: CardField) => z.string(cardRules[field]('', { number: '', expiry: '', cvc: '', name: '' })!).check(z.maxLength(200, 'is too long'));

export const cardSchema = z.object({ number: ruled('number'), expiry: ruled('expiry'), cvc: ruled('cvc'), name: ruled('name') }).check(
  z.superRefine((card, ctx) => {
    for (const field of ['number', 'expiry', 'cvc', 'name'] as const) {
      const message = cardRules[field](card[field], card as CardValues);
      if (message) ctx.issues.push({ code: 'custom', path: [field], message, input: card[field] });
    }
  }),
  z.overwrite((card) => ({ ...card, number: cardDigits(card.number), cvc: card.cvc.trim(), name: card.name.trim(), expiry: card.expiry.trim() })),
);
