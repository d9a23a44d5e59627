import { CARD_EXPIRY } from './cards.ts';

/**
 * One sandbox card payment through a running paylink's HTTP doors, as an integrator and a customer
 * make it: a dynamic link for `slug` with the API token, then the checkout form. The transaction id.
 */
export async function payOverHttp(base: string, opts: { token: string; slug: string; reference: string }): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await res.json()) as Record<string, any>;
    if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const link = await post(`/pay/${opts.slug}`, { key: opts.token, payment: { merchant_reference_id: opts.reference } });
  const checkout = new URL(link.link as string).pathname.split('/')[2]!;
  const paid = await post(`/checkout/${checkout}/pay`, {
    fields: { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' },
    card: { number: '4242424242424242', expiry: CARD_EXPIRY, cvc: '123', name: 'Juan Dela Cruz' },
  });
  if (paid.data?.status !== 'SUCCESS' && !paid.data?.transaction_id) throw new Error(`payment not made: ${JSON.stringify(paid)}`);
  return paid.data.transaction_id as string;
}

/** The payment as the API shows it, or the HTTP status when it is not found. */
export async function transactionOverHttp(base: string, token: string, id: string): Promise<{ status: number; transaction?: Record<string, any> }> {
  const res = await fetch(`${base}/api/v1/transactions/${id}`, { headers: { authorization: token } });
  const json = (await res.json()) as { data?: { transaction?: Record<string, any> } };
  return { status: res.status, transaction: json.data?.transaction };
}
