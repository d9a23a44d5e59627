import { afterAll, beforeAll } from 'vitest';
import { sandboxLocalMethods } from '../../../src/acquirer/local-methods.ts';
import type { SandboxConnector } from '../../../src/acquirer/sandbox-connector.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { CARD_EXP } from '../../support/cards.ts';
import { type CardBehaviour, describeConformance } from './conformance.ts';

/** The sandbox connector on a real database (PGlite, or PostgreSQL with DATABASE_URL). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const numbers: Record<CardBehaviour, string> = {
  succeeds: '4242424242424242',
  declines: '4000000000000002',
  three_d_secure: '4000000000003220',
  refund_fails_later: '4000000000007726',
};

/** Every method the sandbox declares: each runs the method journeys, as on PayMongo's fake. */
const declaredMethods = sandboxLocalMethods().map((m) => m.method);

describeConformance(
  'sandbox',
  () => {
    const connector = t.app.connectors.sandbox as SandboxConnector;
    return {
      connector,
      currency: 'PHP',
      amountMinor: 10_000n,
      pay: (card, key, amountMinor = 10_000n) =>
        connector.createPayment(
          { amountMinor, currency: 'PHP', reference: key, returnUrl: 'http://paylink.test/return', card: { number: numbers[card], cvc: '123', ...CARD_EXP } },
          { idempotencyKey: key },
        ),
      authenticate: async (state, answer) => {
        await connector.completeAuthentication(state.providerPaymentId, answer);
      },
      answerMethod: async (state, answer) => {
        await connector.simulator.answer(state.providerPaymentId, answer);
      },
      // The customer on the sandbox's scan or authorisation page: approves, declines, or leaves it until its window passes.
      methodActions: {
        act: async (state, action) => {
          await connector.simulator.answer(state.providerPaymentId, action === 'pay' ? 'approve' : action);
        },
      },
      saveCard: async () => {
        const verified = await connector.vault.verifyCard({ number: numbers.succeeds, cvc: '123', ...CARD_EXP }, { idempotencyKey: `save:${Math.random()}` });
        if (verified.status !== 'verified') throw new Error('the sandbox did not verify a good card');
        return { token: verified.token };
      },
    };
  },
  declaredMethods,
);
