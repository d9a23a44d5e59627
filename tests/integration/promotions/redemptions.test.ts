import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promotionRedemptions, promotions } from '../../../src/db/schema.ts';
import { DomainError } from '../../../src/domain/errors.ts';
import { findIntegratorByToken } from '../../../src/domain/integrators/service.ts';
import { redeemPromotion, releaseRedemption } from '../../../src/domain/promotions/redemptions.ts';
import { createPromotion, findPromotion } from '../../../src/domain/promotions/service.ts';
import { promotionCreateSchema } from '../../../src/schemas/promotion.ts';
import { createTestApp, provision, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { recordStatusCode } from '../../support/status-codes-seen.ts';

/**
 * Promotion codes redeemed at the same moment, on PGlite and PostgreSQL: never more than the
 * maximum, never twice for one e-mail on a once-per-customer code, and a released redemption gives
 * its place back. Only the PostgreSQL run races (PGlite runs one transaction at a time).
 */
let t: TestApp;
let integratorId: string;
beforeAll(async () => {
  t = await createTestApp();
  await provision(t);
  integratorId = (await findIntegratorByToken(t.app.db, TEST_TOKEN))!.id;
});
afterAll(() => t?.close());

const create = (body: Record<string, unknown>) => createPromotion(t.app, integratorId, promotionCreateSchema.parse(body));
const redeem = (promotionId: string, reference: string, opts: { email?: string; oncePerEmail?: boolean } = {}) =>
  t.app.db.transaction((tx) =>
    redeemPromotion(tx, {
      promotionId,
      reference,
      email: opts.email,
      oncePerEmail: opts.oncePerEmail ?? false,
      discountMinor: 500n,
      currency: 'PHP',
      now: t.app.now(),
    }),
  );
const codeOf = (result: PromiseSettledResult<unknown>) => {
  if (result.status === 'fulfilled') return 'ok';
  if (!(result.reason instanceof DomainError)) return String(result.reason);
  recordStatusCode({ data: { status_code: result.reason.code } });
  return result.reason.code;
};
const tally = (results: PromiseSettledResult<unknown>[]) => {
  const counts: Record<string, number> = {};
  for (const code of results.map(codeOf)) counts[code] = (counts[code] ?? 0) + 1;
  return counts;
};

describe('promotion codes › redemptions under concurrency', () => {
  it('redeems exactly the 10 places left when 50 payments try at once', async () => {
    const promo = await create({ code: 'launch10', discount: { kind: 'percent', percent: 10 }, max_redemptions: 40 });
    for (let i = 0; i < 30; i++) await redeem(promo.id, `cs_before_${i}`);
    const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => redeem(promo.id, `cs_race_${i}`)));
    expect(tally(results)).toEqual({ ok: 10, 'ER.06.01': 40 });
    const [row] = await t.app.db.select().from(promotions).where(eq(promotions.id, promo.id));
    expect(row!.redeemed).toBe(40);
    expect(await t.app.db.$count(promotionRedemptions, eq(promotionRedemptions.promotionId, promo.id))).toBe(40);
  });

  it('lets one e-mail redeem a once-per-customer code once, whatever its case, even at the same moment', async () => {
    const promo = await create({ code: 'WELCOME', discount: { kind: 'fixed', minor: '5000', currency: 'PHP' }, once_per_email: true });
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => redeem(promo.id, `cs_mail_${i}`, { email: i % 2 ? 'Ana@Example.PH' : ' ana@example.ph', oncePerEmail: true })),
    );
    expect(tally(results)).toEqual({ ok: 1, 'ER.06.02': 9 });
    await redeem(promo.id, 'cs_other', { email: 'ben@example.ph', oncePerEmail: true });
    const [row] = await t.app.db.select().from(promotions).where(eq(promotions.id, promo.id));
    expect(row!.redeemed).toBe(2);
  });

  it('gives a released place back, once, and takes a retried redemption of the same attempt as one', async () => {
    const promo = await create({ code: 'ONLY-ONE', discount: { kind: 'percent', percent: 50 }, max_redemptions: 1, once_per_email: true });
    await redeem(promo.id, 'cs_a', { email: 'a@example.ph', oncePerEmail: true });
    await redeem(promo.id, 'cs_a', { email: 'a@example.ph', oncePerEmail: true });
    await expect(redeem(promo.id, 'cs_b', { email: 'b@example.ph', oncePerEmail: true })).rejects.toMatchObject({ code: 'ER.06.01' });
    expect(await t.app.db.transaction((tx) => releaseRedemption(tx, 'cs_a', t.app.now()))).toBe(true);
    expect(await t.app.db.transaction((tx) => releaseRedemption(tx, 'cs_a', t.app.now()))).toBe(false);
    await redeem(promo.id, 'cs_b', { email: 'b@example.ph', oncePerEmail: true });
    // The released e-mail may redeem again.
    await expect(redeem(promo.id, 'cs_c', { email: 'a@example.ph', oncePerEmail: true })).rejects.toMatchObject({ code: 'ER.06.01' });
    const [row] = await t.app.db.select().from(promotions).where(eq(promotions.id, promo.id));
    expect(row!.redeemed).toBe(1);
  });

  it('a refused redemption changes nothing', async () => {
    const promo = await create({ code: 'FULL', discount: { kind: 'percent', percent: 5 }, max_redemptions: 1 });
    await redeem(promo.id, 'cs_1');
    await expect(redeem(promo.id, 'cs_2')).rejects.toMatchObject({ code: 'ER.06.01' });
    expect(await t.app.db.$count(promotionRedemptions, eq(promotionRedemptions.promotionId, promo.id))).toBe(1);
  });
});

describe('promotion codes › creating and finding', () => {
  it('stores the code in upper case and finds it as a customer types it', async () => {
    await create({ code: ' Summer-26 ', discount: { kind: 'percent', percent: 20 }, valid_until: '2026-12-31T16:00:00Z' });
    const found = await findPromotion(t.app, integratorId, 'summer-26 ');
    expect(found).toMatchObject({ code: 'SUMMER-26', discount: { kind: 'percent', percent: 20 }, linkIds: null, redeemed: 0 });
    expect(await findPromotion(t.app, integratorId, 'WINTER')).toBeUndefined();
  });

  it('refuses a code the merchant has, in any case, and a window that ends before it starts', async () => {
    await create({ code: 'TWICE', discount: { kind: 'percent', percent: 5 } });
    const [twice] = await Promise.allSettled([create({ code: 'twice', discount: { kind: 'percent', percent: 5 } })]);
    expect(codeOf(twice!)).toBe('ER.06.00');
    expect(
      promotionCreateSchema.safeParse({ code: 'X1Y', discount: { kind: 'percent', percent: 5 }, valid_from: '2026-12-02', valid_until: '2026-12-01' }).success,
    ).toBe(false);
    expect(promotionCreateSchema.safeParse({ code: 'no spaces', discount: { kind: 'percent', percent: 5 } }).success).toBe(false);
    expect(promotionCreateSchema.safeParse({ code: 'ABC', discount: { kind: 'percent', percent: 101 } }).success).toBe(false);
    await expect(create({ code: 'XXXCUR', discount: { kind: 'fixed', minor: '100', currency: 'XXX' } })).rejects.toMatchObject({ code: 'ER.02.30' });
  });
});
