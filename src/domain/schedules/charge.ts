import pMap from 'p-map';
import type { ChargeResult } from '../../acquirer/acquirer.ts';
import type { Connector } from '../../acquirer/connector.ts';
import type { Logger } from '../../log.ts';
import type { DomainContext } from '../context.ts';
import { type ClaimedCharge, chargeKey } from './claim.ts';

/**
 * Step 2: the acquirer call, outside any transaction. A connector with a card vault charges its
 * vaulted token directly; another connector charges the saved card off-session (a saved card is scheduled only with
 * connectors with native off-session charges: POST /schedule refuses the others; pay-by-link
 * occurrences never come here). An answer that is not
 * final is thrown, so the run is retried under the same key like any call without an answer.
 */
export async function chargeClaim(app: DomainContext, claim: ClaimedCharge): Promise<ChargeResult> {
  const connector = await app.connectors.forIntegrator(claim.integratorId);
  if (connector.vault) {
    return connector.vault.charge(
      { source: { token: claim.cardToken }, amountMinor: claim.amountMinor, currency: claim.currency, description: claim.description ?? undefined },
      { idempotencyKey: chargeKey(claim) },
    );
  }
  const state = await connector.chargeSavedCard(
    {
      token: claim.cardToken,
      ...(claim.cardCustomer ? { customer: claim.cardCustomer } : {}),
      amountMinor: claim.amountMinor,
      currency: claim.currency,
      description: claim.description ?? undefined,
      reference: claim.runId,
    },
    { idempotencyKey: chargeKey(claim) },
  );
  if (state.status === 'succeeded') return { ...state, status: 'succeeded' } as ChargeResult;
  if (state.status === 'declined') return { ...state, status: 'declined' } as ChargeResult;
  // The bank wants the customer (3-D Secure) for an off-session charge: a decline they can act on
  // (runSchedulerTick e-mails them the occurrence's payment link, as for Stripe's authentication_required).
  if (state.status === 'requires_action') {
    return {
      status: 'declined',
      code: 'card_declined',
      message: 'The bank asked the customer to confirm this charge.',
      customerAction: 'authenticate',
    } as ChargeResult;
  }
  throw new Error(`${connector.name}: the off-session charge is still ${state.status}`);
}

/**
 * Step 2 for a tick's claims: a connector that offers a batch charge (the sandbox) takes its share
 * in one call; other connectors, or a batch refused as a whole, one charge at a time. Each answer
 * goes to `answered`; a charge without an answer is logged and counted in `interrupted`, and its
 * run stays pending, charged again under the same key once its lease lapses.
 */
export async function chargeClaims(
  app: DomainContext,
  claims: ClaimedCharge[],
  opts: { concurrency: number; log: Logger; answered: (claim: ClaimedCharge, result: ChargeResult) => void },
): Promise<{ interrupted: number }> {
  const { log, answered } = opts;
  let interrupted = 0;
  const { batches, others } = await byBatchConnector(app, claims);
  for (const [connector, batch] of batches) {
    try {
      const results = await connector.chargeSavedCards!(
        batch.map((claim) => ({ token: claim.cardToken, amountMinor: claim.amountMinor, currency: claim.currency, idempotencyKey: chargeKey(claim) })),
      );
      for (const [n, claim] of batch.entries()) answered(claim, results[n]!);
    } catch (error) {
      log.warn('scheduled charges not taken as a batch; charging them one at a time', { runs: batch.length, error });
      others.push(...batch);
    }
  }
  await pMap(
    others,
    async (claim) => {
      try {
        answered(claim, await chargeClaim(app, claim));
      } catch (error) {
        interrupted++;
        log.error('scheduled charge interrupted; it will be recovered', { run: claim.runId, schedule: claim.scheduleId, error });
      }
    },
    { concurrency: opts.concurrency },
  );
  return { interrupted };
}

/** Claims grouped by a connector that charges saved cards in a batch, and the rest. */
async function byBatchConnector(app: DomainContext, claims: ClaimedCharge[]): Promise<{ batches: Map<Connector, ClaimedCharge[]>; others: ClaimedCharge[] }> {
  const batches = new Map<Connector, ClaimedCharge[]>();
  const others: ClaimedCharge[] = [];
  for (const claim of claims) {
    const connector = await app.connectors.forIntegrator(claim.integratorId);
    if (!connector.chargeSavedCards) others.push(claim);
    else if (batches.has(connector)) batches.get(connector)!.push(claim);
    else batches.set(connector, [claim]);
  }
  return { batches, others };
}
