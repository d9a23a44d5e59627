import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { integrators, links } from '../../src/db/schema.ts';
import { parseAmount } from '../../src/domain/money.ts';
import { type Payment, recordCharge } from '../../src/domain/payments/record.ts';
import type { PaymentSale } from '../../src/schemas/link-sale.ts';
import type { PaymentMethod } from '../../src/schemas/payment-method.ts';
import { sandboxOf, type TestApp } from './app.ts';
import { CARD_EXP } from './cards.ts';

/** Test cards by what they do (numbers from src/acquirer/test-cards.ts). */
export const CARDS = {
  visa: '4242424242424242',
  mastercard: '5555555555554444',
  refundFails: '4000000000005126',
  declined: '4000000000000002',
  /** Refunds are accepted as pending, and fail when synced. */
  refundPending: '4000000000007726',
} as const;

export interface CreatePaymentOptions {
  /** Integrator name from the seed (default "Acme Books"). */
  integrator?: string;
  /** Decimal amount (default "100.00"). */
  amount?: string;
  currency?: string;
  card?: string;
  customerEmail?: string | null;
  notifyUser?: boolean;
  callbackUrl?: string | null;
  merchantReferenceId?: string | null;
  /** The slug of the integrator's link it was paid through (default: none). */
  linkSlug?: string;
  /** Who paid, as checkout records it (`customer.name`, …). */
  customer?: Record<string, string>;
  /**
   * How the customer paid (default card). Another method is recorded as its connector reports it:
   * the method and no card. The sandbox still moves the money as a charge of `card`, so refunds of
   * it reach the sandbox's ledger like any other.
   */
  method?: PaymentMethod;
  /** What it bought (items, tip, promotion code, answers), as the payment page records it. */
  sale?: PaymentSale;
}

/**
 * A payment as a customer's checkout would leave it: the sandbox charges the card, then
 * recordCharge stores the transaction and its outbox event. A declined card gives a failed payment.
 */
export async function createPayment(t: TestApp, opts: CreatePaymentOptions = {}): Promise<Payment> {
  const { app } = t;
  const name = opts.integrator ?? 'Acme Books';
  const [integrator] = await app.db.select().from(integrators).where(eq(integrators.name, name));
  if (!integrator) throw new Error(`no integrator named ${name}: provision the test app first`);
  const [link] = opts.linkSlug ? await app.db.select().from(links).where(eq(links.slug, opts.linkSlug)) : [];
  if (opts.linkSlug && !link) throw new Error(`no link ${opts.linkSlug}`);
  const currency = opts.currency ?? 'PHP';
  const amountMinor = parseAmount(opts.amount ?? '100.00', currency).minor;
  const idempotencyKey = `test-charge-${randomBytes(8).toString('hex')}`;
  const charged = await sandboxOf(app).acquirer.charge(
    { source: { card: { number: opts.card ?? CARDS.visa, ...CARD_EXP, cvc: '123' } }, amountMinor, currency },
    { idempotencyKey },
  );
  const method = opts.method ?? 'card';
  const result: typeof charged =
    method === 'card'
      ? charged
      : charged.status === 'succeeded'
        ? { status: 'succeeded', chargeId: charged.chargeId, method }
        : { status: 'declined', code: charged.code, message: charged.message, method };
  return app.db.transaction((tx) =>
    recordCharge(app, tx, {
      integratorId: integrator.id,
      result,
      amountMinor,
      currency,
      idempotencyKey,
      customerEmail: opts.customerEmail === undefined ? 'juan@example.com' : opts.customerEmail,
      notifyUser: opts.notifyUser ?? true,
      callbackUrl: opts.callbackUrl === undefined ? 'https://merchant.example/hooks/paylink' : opts.callbackUrl,
      merchantReferenceId: opts.merchantReferenceId ?? `order-${randomBytes(3).toString('hex')}`,
      description: 'Test order',
      linkId: link?.id ?? null,
      customer: opts.customer,
      sale: opts.sale,
      now: app.now(),
    }),
  );
}
