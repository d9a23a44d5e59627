import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { transactionPageView } from '../../../api/presenters/transactions.ts';
import { invalidFields } from '../../../domain/errors.ts';
import { listTransactions } from '../../../domain/payments/query.ts';
import { parseWith } from '../../../schemas/parse.ts';
import { transactionsQuerySchema } from '../../../schemas/transaction.ts';

/** GET /api/v1/transactions: newest first, cursor-paged, filtered (docs/api.md, "Lists"). */
export const GET = apiEndpoint({
  run: async ({ app, integrator, url }) => {
    const query = parseWith(transactionsQuerySchema, Object.fromEntries(url.searchParams));
    if (!query.ok) throw invalidFields(query.messages);
    return { code: 'OK.00.00', data: transactionPageView(await listTransactions(app, integrator, query.value)) };
  },
});
export const ALL = methodNotAllowed(['GET']);
