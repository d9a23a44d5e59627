import { describe, expect, it } from 'vitest';
import { declineMessages } from '../../../src/acquirer/acquirer.ts';
import {
  amountAccepted,
  type CardSetupStarted,
  type Connector,
  type MethodSupport,
  methodSupport,
  nextPaymentState,
  type PaymentState,
  type RefundState,
  WebhookVerificationError,
} from '../../../src/acquirer/connector.ts';
import { methodFlow, onlineBankNames, type PaymentMethod, paymentMethodNames } from '../../../src/schemas/payment-method.ts';

/**
 * The journeys every connector must pass, the same for each (src/acquirer/connector.ts states
 * the rules). A subject is one connector plus what the customer's browser and the provider's
 * test tools do around it: each connector's test file builds one (the sandbox on the database,
 * PayMongo against tests/support/fakes/paymongo.ts, or real test keys with `npm run test:live`).
 */
export type CardBehaviour = 'succeeds' | 'declines' | 'three_d_secure' | 'refund_fails_later';

export interface ConformanceSubject {
  connector: Connector;
  currency: string;
  /** An amount the connector accepts (at or above its minimum). */
  amountMinor: bigint;
  /**
   * The customer pays with a card that behaves so: the server's createPayment under `key`, then
   * whatever the browser does (PayMongo: create the PaymentMethod, attach it). The state is what
   * the connector reports after that.
   */
  pay(card: CardBehaviour, key: string, amountMinor?: bigint): Promise<PaymentState>;
  /** The customer answers the 3-D Secure step at the redirect URL. */
  authenticate(state: Extract<PaymentState, { status: 'requires_action' }>, answer: 'approve' | 'fail'): Promise<void>;
  /** Saves a card for off-session charges (offSession 'native'); through the card setup where the connector has one. */
  saveCard?(): Promise<{ token: string; customer?: string }>;
  /** What the browser does with a card setup (createCardSetup): the customer gives a card that behaves so. */
  confirmCardSetup?(started: CardSetupStarted, card: 'succeeds' | 'declines'): Promise<void>;
  /** Makes the provider report a status paylink has never seen for this card setup. */
  reportUnknownSetupStatus?(setupId: string): Promise<void>;
  /** Lets the provider finish what it does asynchronously (refunds settling or failing). */
  settleLater?(): Promise<void>;
  /** A signed provider webhook about a payment (capabilities.webhooks). */
  signedPaymentEvent?(state: PaymentState & { providerPaymentId: string }, opts: { eventId: string }): { rawBody: string; headers: Headers };
  /** Makes the provider report a status paylink has never seen for this payment. */
  reportUnknownStatus?(providerPaymentId: string): Promise<void>;
  /**
   * The customer's side of a local method (QR Ph scanned and paid, a wallet's or bank's page
   * authorised, declined, or left until its window passes): the sandbox's simulator, a fake's test
   * tool. Absent: the method journeys are skipped.
   */
  answerMethod?(state: Extract<PaymentState, { status: 'awaiting_scan' | 'requires_action' }>, answer: 'approve' | 'decline' | 'expire'): Promise<void>;
  /**
   * The customer's side of the methods other than card (capabilities.methods): what they do on the
   * provider's authorisation page or with the QR code. Absent: the method journeys are skipped.
   */
  methodActions?: {
    /** The customer completes it (`pay`), refuses it (`decline`), lets its window or code expire (`expire`). */
    act(state: Extract<PaymentState, { status: 'requires_action' | 'awaiting_scan' }>, action: 'pay' | 'decline' | 'expire'): Promise<void>;
    /** Whatever the provider does asynchronously after the customer acted (webhooks in flight). */
    settle?(): Promise<void>;
  };
  /** Journeys a live run cannot drive (a 3-D Secure page needs a person): skipped, and said so. Fakes and the sandbox leave it empty. */
  unsupported?: ReadonlyArray<'three_d_secure' | 'refund_fails_later'>;
}

/** Sync answers `processing` while the provider works: ask again a few times, as the reconciler does. */
async function settledPayment(connector: Connector, id: string): Promise<PaymentState> {
  for (let i = 0; ; i++) {
    const state = await connector.syncPayment(id);
    if (state.status !== 'processing' || i >= 20) return state;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function settledRefund(subject: ConformanceSubject, first: RefundState): Promise<RefundState> {
  let state = first;
  for (let i = 0; state.status === 'pending' && i < 20; i++) {
    await subject.settleLater?.();
    state = await subject.connector.syncRefund(state.refundId);
  }
  return state;
}

const unique = (what: string) => `conformance:${what}:${Date.now()}:${Math.random().toString(36).slice(2)}`;

/** `methods`: the methods besides card whose journeys run (the connector's declared methods, known before its subject is set up). */
export function describeConformance(name: string, setup: () => ConformanceSubject, methods: readonly PaymentMethod[] = []) {
  describe(`connector conformance › ${name}`, () => {
    const paid = async (subject: ConformanceSubject, amountMinor?: bigint, card: CardBehaviour = 'succeeds') => {
      const state = await subject.pay(card, unique('pay'), amountMinor);
      expect(state.status).toBe('succeeded');
      return state as Extract<PaymentState, { status: 'succeeded' }>;
    };
    const refundOf = (
      subject: ConformanceSubject,
      payment: Extract<PaymentState, { status: 'succeeded' }>,
      amountMinor: bigint,
      key: string,
      total = subject.amountMinor,
    ) =>
      subject.connector.refund(
        { chargeId: payment.chargeId, amountMinor, currency: subject.currency, paymentAmountMinor: total, paidAt: new Date() },
        { idempotencyKey: key },
      );

    it('pay › a good card succeeds, sync says the same, and the same key never pays twice', async () => {
      const subject = setup();
      const key = unique('pay');
      const first = await subject.pay('succeeds', key);
      expect(first.status).toBe('succeeded');
      if (first.status !== 'succeeded') return;
      expect(first.last4).toMatch(/^\d{4}$/);
      expect(await subject.connector.syncPayment(first.providerPaymentId)).toMatchObject({ status: 'succeeded', chargeId: first.chargeId });
      const again = await subject.pay('succeeds', key);
      expect(again).toMatchObject({ status: 'succeeded', providerPaymentId: first.providerPaymentId, chargeId: first.chargeId });
    });

    it('pay › the amount is within what the connector accepts', () => {
      const subject = setup();
      expect(amountAccepted(subject.connector.capabilities, subject.amountMinor, subject.currency)).toEqual({ ok: true });
    });

    it('3-D Secure › the payment requires action, then succeeds once the customer completes it', async (ctx) => {
      const subject = setup();
      if (subject.unsupported?.includes('three_d_secure')) return ctx.skip();
      const state = await subject.pay('three_d_secure', unique('3ds'));
      expect(state.status).toBe('requires_action');
      if (state.status !== 'requires_action') return;
      expect(state.redirectUrl).toMatch(/^(https?:\/\/|\/)/);
      // Until the customer answers, the payment is not paid.
      expect((await subject.connector.syncPayment(state.providerPaymentId)).status).toBe('requires_action');
      await subject.authenticate(state, 'approve');
      expect(await settledPayment(subject.connector, state.providerPaymentId)).toMatchObject({
        status: 'succeeded',
        providerPaymentId: state.providerPaymentId,
      });
    });

    it('3-D Secure › a failed authentication declines the payment', async (ctx) => {
      const subject = setup();
      if (subject.unsupported?.includes('three_d_secure')) return ctx.skip();
      const state = await subject.pay('three_d_secure', unique('3ds-fail'));
      if (state.status !== 'requires_action') throw new Error(`expected requires_action, got ${state.status}`);
      await subject.authenticate(state, 'fail');
      const settled = await settledPayment(subject.connector, state.providerPaymentId);
      expect(settled.status).toBe('declined');
    });

    it('decline › a declined card gives a plain-words code and message, never success', async () => {
      const subject = setup();
      const state = await subject.pay('declines', unique('decline'));
      expect(state.status).toBe('declined');
      if (state.status !== 'declined') return;
      expect(Object.keys(declineMessages)).toContain(state.code);
      expect(state.message.length).toBeGreaterThan(0);
    });

    it('refund › a partial then a full refund of the rest succeed; the same key refunds once', async () => {
      const subject = setup();
      const payment = await paid(subject);
      const part = subject.amountMinor / 4n;
      const key = unique('refund');
      const first = await settledRefund(subject, await refundOf(subject, payment, part, key));
      expect(first.status).toBe('succeeded');
      const replay = await refundOf(subject, payment, part, key);
      expect(replay.status === 'failed' ? undefined : replay.refundId).toBe(first.status === 'succeeded' ? first.refundId : 'never');
      const rest = await settledRefund(subject, await refundOf(subject, payment, subject.amountMinor - part, unique('refund-rest')));
      expect(rest.status).toBe('succeeded');
      // Nothing is left: the provider refuses more.
      const more = await settledRefund(subject, await refundOf(subject, payment, 1n, unique('refund-more')));
      expect(more.status).toBe('failed');
    });

    it('refund › a refund of a whole payment succeeds', async () => {
      const subject = setup();
      const payment = await paid(subject);
      const state = await settledRefund(subject, await refundOf(subject, payment, subject.amountMinor, unique('refund-full')));
      expect(state.status).toBe('succeeded');
    });

    it('refund › a refund accepted as pending can fail later, and then says why', async (ctx) => {
      const subject = setup();
      if (subject.unsupported?.includes('refund_fails_later')) return ctx.skip();
      const payment = await paid(subject, undefined, 'refund_fails_later');
      const first = await refundOf(subject, payment, subject.amountMinor, unique('refund-later'));
      expect(first.status).toBe('pending');
      const settled = await settledRefund(subject, first);
      expect(settled).toMatchObject({ status: 'failed' });
      if (settled.status === 'failed') expect(settled.message.length).toBeGreaterThan(0);
    });

    it('refund › a refund past the refund window or a partial one the connector cannot do is refused before the provider', async () => {
      const subject = setup();
      const card = methodSupport(subject.connector.capabilities, 'card')!.refunds;
      const { windowDays: refundWindowDays, partial: partialRefunds } = card;
      const payment = await paid(subject);
      if (refundWindowDays !== null) {
        const old = new Date(Date.now() - (refundWindowDays + 1) * 86_400_000);
        const late = await subject.connector.refund(
          { chargeId: payment.chargeId, amountMinor: subject.amountMinor, currency: subject.currency, paymentAmountMinor: subject.amountMinor, paidAt: old },
          { idempotencyKey: unique('late') },
        );
        expect(late).toMatchObject({ status: 'failed', code: 'not_refundable' });
      }
      if (!partialRefunds) expect(await refundOf(subject, payment, 1n, unique('part'))).toMatchObject({ status: 'failed', code: 'not_refundable' });
      if (refundWindowDays === null) {
        // No window of its own: a year-old payment is still refunded.
        const old = new Date(Date.now() - 365 * 86_400_000);
        const state = await subject.connector.refund(
          { chargeId: payment.chargeId, amountMinor: 1n, currency: subject.currency, paymentAmountMinor: subject.amountMinor, paidAt: old },
          { idempotencyKey: unique('old') },
        );
        expect(state.status === 'failed' ? state.code : 'accepted').not.toBe('not_refundable');
      }
    });

    it('saved card › an off-session charge of a saved card succeeds once per key, where the connector charges off-session', async () => {
      const subject = setup();
      const { offSession } = subject.connector.capabilities;
      if (offSession !== 'native') {
        // Schedules must not rely on it: the connector refuses instead of pretending.
        await expect(
          subject.connector.chargeSavedCard(
            { token: 'none', amountMinor: subject.amountMinor, currency: subject.currency, reference: 'x' },
            { idempotencyKey: unique('off') },
          ),
        ).rejects.toThrow();
        return;
      }
      const saved = await subject.saveCard!();
      const key = unique('off-session');
      const request = { ...saved, amountMinor: subject.amountMinor, currency: subject.currency, reference: 'schedule-run' };
      const first = await subject.connector.chargeSavedCard(request, { idempotencyKey: key });
      expect(first.status).toBe('succeeded');
      const again = await subject.connector.chargeSavedCard(request, { idempotencyKey: key });
      expect(again).toEqual(first);
    });

    it('card setup › a card registered without a server vault: pending, refused, then saved once with its card; unknown statuses are pending', async () => {
      const subject = setup();
      const { connector } = subject;
      if (!connector.createCardSetup || !connector.syncCardSetup) {
        // Only a server vault may take registrations without a setup of the provider's own.
        expect(connector.capabilities.cardCollection === 'server_vault' || connector.capabilities.offSession !== 'native').toBe(true);
        return;
      }
      const key = unique('setup');
      const request = { reference: key, customerName: 'Ana Reyes', customerEmail: 'ana@example.com', returnUrl: 'http://paylink.test/register/x/return' };
      const started = await connector.createCardSetup(request, { idempotencyKey: key });
      expect(started.clientSecret.length).toBeGreaterThan(10);
      // The same key gives the same setup and customer.
      expect(await connector.createCardSetup(request, { idempotencyKey: key })).toEqual(started);
      expect(await connector.syncCardSetup(started.setupId)).toMatchObject({ status: 'pending', setupId: started.setupId });
      await subject.confirmCardSetup!(started, 'declines');
      const refused = await connector.syncCardSetup(started.setupId);
      expect(refused).toMatchObject({ status: 'failed', setupId: started.setupId, final: false });
      if (refused.status === 'failed') expect(Object.keys(declineMessages)).toContain(refused.code);
      await subject.confirmCardSetup!(started, 'succeeds');
      const saved = await connector.syncCardSetup(started.setupId);
      expect(saved).toMatchObject({ status: 'succeeded', setupId: started.setupId, customer: started.customer });
      if (saved.status !== 'succeeded') return;
      expect(saved.last4).toMatch(/^\d{4}$/);
      expect(saved.expYear).toBeGreaterThan(2000);
      // The saved card is charged off-session.
      const charged = await connector.chargeSavedCard(
        { token: saved.token, customer: saved.customer, amountMinor: subject.amountMinor, currency: subject.currency, reference: 'setup-run' },
        { idempotencyKey: unique('setup-charge') },
      );
      expect(charged.status).toBe('succeeded');
      if (subject.reportUnknownSetupStatus) {
        const other = await connector.createCardSetup({ ...request, reference: `${key}:2` }, { idempotencyKey: `${key}:2` });
        await subject.reportUnknownSetupStatus(other.setupId);
        expect((await connector.syncCardSetup(other.setupId)).status).toBe('pending');
      }
    });

    it('webhooks › a signed event verifies; a duplicate and an out-of-order one change nothing; a forged one is refused', async () => {
      const subject = setup();
      if (!subject.connector.capabilities.webhooks) {
        expect(() => subject.connector.parseWebhook({ rawBody: '{}', headers: new Headers(), now: new Date() })).toThrow(WebhookVerificationError);
        return;
      }
      const payment = await paid(subject);
      const now = new Date();
      const paidEvent = subject.signedPaymentEvent!(payment, { eventId: 'evt_paid' });
      const parsed = subject.connector.parseWebhook({ ...paidEvent, now });
      expect(parsed).toMatchObject({ kind: 'payment', eventId: 'evt_paid', payment: { status: 'succeeded', providerPaymentId: payment.providerPaymentId } });
      const duplicate = subject.connector.parseWebhook({ ...paidEvent, now });
      expect(duplicate.eventId).toBe(parsed.eventId);
      // A late decline (an earlier card on the same payment) after "succeeded": the recorded state stands.
      const lateDecline = {
        status: 'declined' as const,
        providerPaymentId: payment.providerPaymentId,
        code: 'card_declined' as const,
        message: declineMessages.card_declined,
      };
      const late = subject.connector.parseWebhook({ ...subject.signedPaymentEvent!(lateDecline, { eventId: 'evt_late' }), now });
      expect(late).toMatchObject({ kind: 'payment', payment: { status: 'declined' } });
      if (late.kind === 'payment') expect(nextPaymentState('succeeded', late.payment)).toBeUndefined();
      if (parsed.kind === 'payment') expect(nextPaymentState('processing', parsed.payment)).toMatchObject({ status: 'succeeded' });
      const forged = { rawBody: paidEvent.rawBody.replace(payment.providerPaymentId, `${payment.providerPaymentId}x`), headers: paidEvent.headers };
      expect(() => subject.connector.parseWebhook({ ...forged, now })).toThrow(WebhookVerificationError);
      expect(() => subject.connector.parseWebhook({ rawBody: paidEvent.rawBody, headers: new Headers(), now })).toThrow(WebhookVerificationError);
    });

    describe('methods', () => {
      // The journeys run for each method named here; each must be one the connector declares.
      const declared = methods.filter((m) => m !== 'card');
      it('every method named for these journeys is one the connector declares', () => {
        const subject = setup();
        for (const method of declared) expect(methodSupport(subject.connector.capabilities, method)?.method).toBe(method);
      });
      /** `bank`: the online bank to pay through (default: the method's first). */
      const start = async (subject: ConformanceSubject, method: PaymentMethod, key = unique(method), bank?: string) => {
        const support = methodSupport(subject.connector.capabilities, method)!;
        const amountMinor = support.minimumMinor && support.minimumMinor > subject.amountMinor ? support.minimumMinor : subject.amountMinor;
        const state = await subject.connector.createPayment(
          {
            amountMinor,
            currency: subject.currency,
            reference: key,
            returnUrl: 'http://paylink.test/checkout/x/return',
            method,
            ...(support.banks ? { bank: bank ?? support.banks[0] } : {}),
            billing: { name: 'Ana Reyes', email: 'ana@example.com', phone: '+639171234567' },
          },
          { idempotencyKey: key },
        );
        return { state, amountMinor };
      };
      const waiting = (state: PaymentState) => {
        expect(['requires_action', 'awaiting_scan']).toContain(state.status);
        return state as Extract<PaymentState, { status: 'requires_action' | 'awaiting_scan' }>;
      };

      for (const method of declared) {
        const name = paymentMethodNames[method];
        it(`${method} › pay: the customer is sent to the provider (or shown the code), pays, and sync says succeeded with the method; the same key starts nothing new`, async (ctx) => {
          const subject = setup();
          if (!subject.methodActions) return ctx.skip();
          const key = unique(method);
          const { state } = await start(subject, method, key);
          const open = waiting(state);
          if (methodFlow[method] === 'qr') {
            expect(open).toMatchObject({ status: 'awaiting_scan' });
            if (open.status === 'awaiting_scan') {
              expect(open.qr.content.length).toBeGreaterThan(10);
              expect(open.qr.expiresAt.getTime()).toBeGreaterThan(Date.now());
            }
          } else expect(open).toMatchObject({ status: 'requires_action', redirectUrl: expect.stringMatching(/^https?:\/\//) });
          const again = await start(subject, method, key);
          expect(again.state.providerPaymentId).toBe(open.providerPaymentId);
          await subject.methodActions.act(open, 'pay');
          await subject.methodActions.settle?.();
          const paid = await settledPayment(subject.connector, open.providerPaymentId);
          expect(paid).toMatchObject({ status: 'succeeded', method });
          if (!subject.signedPaymentEvent || paid.status !== 'succeeded') return;
          // Its webhook names the method; a duplicate is the same event; a decline arriving late changes nothing.
          const now = new Date();
          const event = subject.signedPaymentEvent(paid, { eventId: `evt_${method}` });
          const parsed = subject.connector.parseWebhook({ ...event, now });
          expect(parsed).toMatchObject({ kind: 'payment', payment: { status: 'succeeded', method, providerPaymentId: open.providerPaymentId } });
          expect(subject.connector.parseWebhook({ ...event, now }).eventId).toBe(parsed.eventId);
          if (parsed.kind === 'payment') expect(nextPaymentState('awaiting_scan', parsed.payment)).toMatchObject({ status: 'succeeded' });
          const late = {
            status: 'declined' as const,
            providerPaymentId: open.providerPaymentId,
            code: 'cancelled' as const,
            message: declineMessages.cancelled,
          };
          const lateEvent = subject.connector.parseWebhook({ ...subject.signedPaymentEvent(late, { eventId: `evt_${method}_late` }), now });
          if (lateEvent.kind === 'payment') expect(nextPaymentState('succeeded', lateEvent.payment)).toBeUndefined();
        });

        it(`${method} › decline and expiry end the attempt with a plain-words code; coming back without paying leaves it open`, async (ctx) => {
          const subject = setup();
          if (!subject.methodActions) return ctx.skip();
          const left = waiting((await start(subject, method)).state);
          // Back on paylink's page without paying: not final, the same provider page (or code) still waits.
          expect((await subject.connector.syncPayment(left.providerPaymentId)).status).toBe(left.status);
          const refused = waiting((await start(subject, method)).state);
          await subject.methodActions.act(refused, 'decline');
          const declined = await settledPayment(subject.connector, refused.providerPaymentId);
          expect(declined).toMatchObject({ status: 'declined', method });
          if (declined.status === 'declined') expect(Object.keys(declineMessages)).toContain(declined.code);
          const expiring = waiting((await start(subject, method)).state);
          await subject.methodActions.act(expiring, 'expire');
          expect(await settledPayment(subject.connector, expiring.providerPaymentId)).toMatchObject({ status: 'declined', code: 'expired', method });
        });

        it(`${method} › refunds follow the method's own rules: refused before the provider when they forbid it, naming ${name}`, async (ctx) => {
          const subject = setup();
          if (!subject.methodActions) return ctx.skip();
          const rules = methodSupport(subject.connector.capabilities, method)!.refunds;
          const { state, amountMinor } = await start(subject, method);
          await subject.methodActions.act(waiting(state), 'pay');
          const paid = await settledPayment(subject.connector, state.providerPaymentId!);
          if (paid.status !== 'succeeded') throw new Error(`expected succeeded, got ${paid.status}`);
          const refund = (amount: bigint, paidAt = new Date()) =>
            subject.connector.refund(
              { chargeId: paid.chargeId, amountMinor: amount, currency: subject.currency, paymentAmountMinor: amountMinor, paidAt, method },
              { idempotencyKey: unique(`${method}-refund`) },
            );
          if (!rules.refundable) {
            const refused = await refund(amountMinor);
            expect(refused).toMatchObject({ status: 'failed', code: 'not_refundable' });
            if (refused.status === 'failed') expect(refused.message).toContain(name);
            return;
          }
          if (rules.windowDays !== null) {
            const late = await refund(amountMinor, new Date(Date.now() - (rules.windowDays + 1) * 86_400_000));
            expect(late).toMatchObject({ status: 'failed', code: 'not_refundable' });
            if (late.status === 'failed') expect(late.message).toContain(`${name} payments only within ${rules.windowDays} days`);
          }
          if (!rules.partial) expect(await refund(1n)).toMatchObject({ status: 'failed', code: 'not_refundable' });
          // Pending at first where the acquirer settles later, then succeeded.
          const first = await refund(rules.partial ? amountMinor / 2n : amountMinor);
          expect(first.status === 'failed' ? first.message : first.status).toMatch(/pending|succeeded/);
          expect(await settledRefund(subject, first)).toMatchObject({ status: 'succeeded' });
        });
      }

      it('every method › a bank whose payments cannot be refunded, where a method has one, is refused before the provider, naming the method and the bank', async (ctx) => {
        const subject = setup();
        const unrefundable = declared.flatMap((method) =>
          (methodSupport(subject.connector.capabilities, method)!.refunds.unrefundableBanks ?? []).map((bank) => ({ method, bank })),
        );
        if (!subject.methodActions || unrefundable.length === 0) return ctx.skip();
        for (const { method, bank } of unrefundable) {
          const { state, amountMinor } = await start(subject, method, unique(`${method}-${bank}`), bank);
          await subject.methodActions.act(waiting(state), 'pay');
          const paid = await settledPayment(subject.connector, state.providerPaymentId!);
          if (paid.status !== 'succeeded') throw new Error(`expected succeeded, got ${paid.status}`);
          for (const amount of [amountMinor, 1n]) {
            const refused = await subject.connector.refund(
              { chargeId: paid.chargeId, amountMinor: amount, currency: subject.currency, paymentAmountMinor: amountMinor, paidAt: new Date(), method, bank },
              { idempotencyKey: unique(`${method}-${bank}-refund`) },
            );
            expect(refused).toEqual({
              status: 'failed',
              code: 'not_refundable',
              message: `This acquirer cannot refund payments made by ${paymentMethodNames[method]} through ${onlineBankNames[bank]}.`,
            });
          }
        }
      });
    });

    /** Every method but cards the connector declares, each started in PHP at an amount it takes. */
    const localMethods = (subject: ConformanceSubject) => subject.connector.capabilities.methods.filter((m) => methodFlow[m.method] !== 'card');
    const startMethod = async (subject: ConformanceSubject, support: MethodSupport, key = unique(`method:${support.method}`)) => {
      const amountMinor = support.minimumMinor !== undefined && support.minimumMinor > subject.amountMinor ? support.minimumMinor : subject.amountMinor;
      const state = await subject.connector.createPayment(
        {
          amountMinor,
          currency: support.currencies?.[0] ?? subject.currency,
          reference: key,
          returnUrl: 'http://paylink.test/checkout/t/return',
          method: support.method,
          ...(support.banks ? { bank: support.banks[0] } : {}),
          billing: { name: 'Juan Dela Cruz', email: 'juan@example.com', phone: '+639171234567' },
        },
        { idempotencyKey: key },
      );
      const waiting = methodFlow[support.method] === 'qr' ? 'awaiting_scan' : 'requires_action';
      expect(state.status, support.method).toBe(waiting);
      return { state: state as Extract<PaymentState, { status: 'awaiting_scan' | 'requires_action' }>, key, amountMinor };
    };

    it('methods › each local method waits for the customer (a QR code, an authorisation page), replays under its key, and pays once approved', async (ctx) => {
      const subject = setup();
      if (!subject.answerMethod || localMethods(subject).length === 0) return ctx.skip();
      for (const support of localMethods(subject)) {
        const { state, key } = await startMethod(subject, support);
        if (state.status === 'awaiting_scan') {
          expect(state.qr.content).not.toBe('');
          expect(state.qr.expiresAt.getTime()).toBeGreaterThan(Date.now());
        } else {
          expect(state.redirectUrl).toMatch(/^https?:\/\//);
        }
        expect((await startMethod(subject, support, key)).state.providerPaymentId).toBe(state.providerPaymentId);
        await subject.answerMethod(state, 'approve');
        const paidState = await settledPayment(subject.connector, state.providerPaymentId);
        expect(paidState, support.method).toMatchObject({ status: 'succeeded', method: support.method, providerPaymentId: state.providerPaymentId });
      }
    });

    it('methods › declined or left to expire, a local method ends declined (cancelled, expired) and can no longer be paid', async (ctx) => {
      const subject = setup();
      if (!subject.answerMethod || localMethods(subject).length === 0) return ctx.skip();
      for (const support of localMethods(subject)) {
        for (const [answer, code] of [
          ['decline', undefined],
          ['expire', 'expired'],
        ] as const) {
          const { state } = await startMethod(subject, support);
          await subject.answerMethod(state, answer);
          const ended = await settledPayment(subject.connector, state.providerPaymentId);
          expect(ended, `${support.method} ${answer}`).toMatchObject({ status: 'declined', ...(code ? { code } : {}) });
          await subject.answerMethod(state, 'approve');
          expect((await settledPayment(subject.connector, state.providerPaymentId)).status).toBe('declined');
        }
      }
    });

    it('methods › a waiting payment ended by paylink (cancelPayment) is cancelled and never paid after', async (ctx) => {
      const subject = setup();
      if (!subject.answerMethod || !subject.connector.cancelPayment || localMethods(subject).length === 0) return ctx.skip();
      for (const support of localMethods(subject)) {
        const { state } = await startMethod(subject, support);
        expect(await subject.connector.cancelPayment(state.providerPaymentId)).toMatchObject({ status: 'declined', code: 'cancelled' });
        await subject.answerMethod(state, 'approve');
        expect((await settledPayment(subject.connector, state.providerPaymentId)).status).toBe('declined');
      }
    });

    it("methods › a local method's payment is refunded under its own rules: in full where refundable, refused before the provider where not", async (ctx) => {
      const subject = setup();
      if (!subject.answerMethod || localMethods(subject).length === 0) return ctx.skip();
      for (const support of localMethods(subject)) {
        const { state, amountMinor } = await startMethod(subject, support);
        await subject.answerMethod(state, 'approve');
        const paidState = await settledPayment(subject.connector, state.providerPaymentId);
        if (paidState.status !== 'succeeded') throw new Error(`${support.method} did not pay`);
        const refund = await subject.connector.refund(
          {
            chargeId: paidState.chargeId,
            amountMinor,
            currency: support.currencies?.[0] ?? subject.currency,
            paymentAmountMinor: amountMinor,
            paidAt: new Date(),
            method: support.method,
          },
          { idempotencyKey: unique(`refund:${support.method}`) },
        );
        if (support.refunds.refundable) expect((await settledRefund(subject, refund)).status, support.method).toBe('succeeded');
        else expect(refund, support.method).toMatchObject({ status: 'failed', code: 'not_refundable' });
      }
    });

    it('unknown statuses › a status the connector does not know reads as processing, never success', async () => {
      const subject = setup();
      if (!subject.reportUnknownStatus) return expect(subject.connector.capabilities.cardCollection).toBe('server_vault');
      const state = await subject.pay('three_d_secure', unique('unknown'));
      await subject.reportUnknownStatus(state.providerPaymentId!);
      expect((await subject.connector.syncPayment(state.providerPaymentId!)).status).toBe('processing');
    });
  });
}
