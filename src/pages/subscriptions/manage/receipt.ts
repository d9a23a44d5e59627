import type { APIRoute } from 'astro';
import { openSubscriberToken } from '../../../domain/subscriptions/access.ts';
import { subscriberPayment } from '../../../domain/subscriptions/portal.ts';
import { subscriberReceipt } from '../../../domain/subscriptions/receipt.ts';
import { DEFAULT_LOCALE, isLocale } from '../../../i18n/index.ts';

const lang = (value: string | null) => (isLocale(value) ? value : DEFAULT_LOCALE);

/** A receipt the customer downloads from their subscriptions page: a text file, only for one of their own payments. */
export const GET: APIRoute = async ({ locals, url }) => {
  const app = locals.paylink;
  const opened = openSubscriberToken(app, url.searchParams.get('token'));
  const payment = opened.ok ? await subscriberPayment(app, opened.subscriber, (url.searchParams.get('payment') ?? '').slice(0, 64)) : undefined;
  if (!opened.ok || !payment || payment.status !== 'succeeded') {
    return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
  }
  const text = await subscriberReceipt(app, payment, lang(url.searchParams.get('lang')));
  return new Response(text, {
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'content-disposition': `attachment; filename="receipt-${payment.id}.txt"`,
      'cache-control': 'no-store',
    },
  });
};
