import { describe, expect, it } from 'vitest';
import type { ChargeResult } from '../../../src/acquirer/acquirer.ts';
import type { Connector } from '../../../src/acquirer/connector.ts';
import type { PaylinkApp } from '../../../src/app.ts';
import { chargeClaims } from '../../../src/domain/schedules/charge.ts';
import type { ClaimedCharge } from '../../../src/domain/schedules/claim.ts';
import type { Logger } from '../../../src/log.ts';

const paid = (chargeId: string): ChargeResult => ({
  status: 'succeeded',
  chargeId,
  brand: 'visa',
  last4: '4242',
  expMonth: 1,
  expYear: 2030,
  fingerprint: 'f',
});

const claim = (runId: string, integratorId: string): ClaimedCharge =>
  ({ runId, integratorId, attempt: 1, amountMinor: 1500n, currency: 'PHP', cardToken: `tok_${runId}`, cardCustomer: null, description: null }) as ClaimedCharge;

/** Connectors that are not the sandbox, each declaring some of the optional capabilities, and what each was asked. */
function connectors() {
  const asked: string[] = [];
  const base = { capabilities: {} } as unknown as Connector;
  const batching: Connector = {
    ...base,
    name: 'batching',
    chargeSavedCards: async (reqs) => {
      asked.push(`batching: batch of ${reqs.map((r) => r.token).join(', ')}`);
      return reqs.map((r) => paid(`ch_${r.token}`));
    },
  };
  const vaulted: Connector = {
    ...base,
    name: 'vaulted',
    vault: {
      fingerprint: () => 'f',
      verifyCard: async () => ({ status: 'declined', code: 'card_declined', message: 'unused' }),
      charge: async (req, opts) => {
        asked.push(`vaulted: vault charge of ${'token' in req.source ? req.source.token : 'a card'} under ${opts.idempotencyKey}`);
        return paid('ch_vault');
      },
    },
  };
  const offSession: Connector = {
    ...base,
    name: 'off-session',
    chargeSavedCard: async (req) => {
      asked.push(`off-session: charge of ${req.token}`);
      return { status: 'succeeded', providerPaymentId: 'pi_1', chargeId: 'ch_off' };
    },
  };
  const byIntegrator: Record<string, Connector> = { a: batching, b: vaulted, c: offSession };
  const app = { connectors: { forIntegrator: async (id: string) => byIntegrator[id]! } } as unknown as PaylinkApp;
  return { app, asked };
}

const log = { warn: () => {}, error: () => {} } as unknown as Logger;

describe('schedules › charging a pass’s claims', () => {
  it('uses what each connector declares, whatever its name: a batch charge, a vault, or one off-session charge each', async () => {
    const { app, asked } = connectors();
    const answers: string[] = [];
    const { interrupted } = await chargeClaims(app, [claim('r1', 'a'), claim('r2', 'b'), claim('r3', 'a'), claim('r4', 'c')], {
      concurrency: 1,
      log,
      answered: (c, result) => answers.push(`${c.runId} ${result.status}`),
    });
    expect(interrupted).toBe(0);
    expect(asked).toEqual(['batching: batch of tok_r1, tok_r3', 'vaulted: vault charge of tok_r2 under schedule-run:r2:1', 'off-session: charge of tok_r4']);
    expect(answers.sort()).toEqual(['r1 succeeded', 'r2 succeeded', 'r3 succeeded', 'r4 succeeded']);
  });
});
