import { apiEndpoint, methodNotAllowed } from '../../../../api/endpoint.ts';
import { transactionView } from '../../../../api/presenters/transactions.ts';
import { findTransaction } from '../../../../domain/payments/query.ts';

/** A transaction with its refunds, amounts and states, for reconciliation. */
export const GET = apiEndpoint({
  run: async ({ app, integrator, params }) => ({
    code: 'OK.00.00',
    data: { transaction: transactionView(await findTransaction(app, integrator, String(params.id ?? ''))) },
  }),
});
export const ALL = methodNotAllowed(['GET']);
