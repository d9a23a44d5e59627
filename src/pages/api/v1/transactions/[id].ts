import { apiEndpoint, methodNotAllowed } from '../../../../api/endpoint.ts';
import { getTransactionView } from '../../../../domain/payments/query.ts';

/** A transaction with its refunds, amounts and states, for reconciliation. */
export const GET = apiEndpoint({
  run: async ({ app, integrator, params }) => ({
    code: 'OK.00.00',
    data: { transaction: await getTransactionView(app.db, integrator.id, String(params.id ?? '')) },
  }),
});
export const ALL = methodNotAllowed(['GET']);
