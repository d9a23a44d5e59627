import type { APIRoute } from 'astro';
import { generalMessages } from '../../api/console-forms.ts';
import { paymentsForm } from '../../api/console-lists.ts';
import { csvHeader, csvRow } from '../../api/presenters/console-payments.ts';
import { openConsole } from '../../console/entry.ts';
import { listTransactions } from '../../domain/payments/query.ts';
import { LIST_LIMIT_MAX } from '../../schemas/pagination.ts';

/**
 * /console/payments.csv: the filtered list of /console/payments (the same query), every page of
 * it, streamed page by page through the same domain query as the list and the API.
 */
export const GET: APIRoute = async (ctx) => {
  const page = await openConsole(ctx);
  if (page instanceof Response) return page;
  const app = ctx.locals.paylink;
  const form = paymentsForm(ctx.url);
  if (!form.query) {
    const text = generalMessages(form.messages).join('\n');
    return new Response(`The filters have mistakes; fix them on the Payments page.\n${text}\n`, {
      status: 422,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
  const { starting_after: _a, ending_before: _b, ...filters } = form.query;
  const integrator = { id: page.identity.user.integratorId };
  let cursor: string | undefined;
  let done = false;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvHeader()));
    },
    async pull(controller) {
      if (done) return controller.close();
      const result = await listTransactions(app, integrator, { ...filters, limit: LIST_LIMIT_MAX, starting_after: cursor });
      if (result.items.length > 0) controller.enqueue(encoder.encode(result.items.map(csvRow).join('')));
      cursor = result.items.at(-1)?.payment.id;
      done = !result.hasMore || cursor === undefined;
    },
  });
  const day = app.now().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8; header=present',
      'content-disposition': `attachment; filename="paylink-payments-${day}.csv"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
};
