import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { refundPageView } from '../../../api/presenters/transactions.ts';
import { invalidFields } from '../../../domain/errors.ts';
import { listRefunds } from '../../../domain/payments/query.ts';
import { parseWith } from '../../../schemas/parse.ts';
import { refundsQuerySchema } from '../../../schemas/transaction.ts';

/** GET /api/v1/refunds: newest first, cursor-paged, filtered (docs/api.md, "Lists"). */
export const GET = apiEndpoint({
  run: async ({ app, integrator, url }) => {
    const query = parseWith(refundsQuerySchema, Object.fromEntries(url.searchParams));
    if (!query.ok) throw invalidFields(query.messages);
    return { code: 'OK.00.00', data: refundPageView(await listRefunds(app, integrator, query.value)) };
  },
});
export const ALL = methodNotAllowed(['GET']);
