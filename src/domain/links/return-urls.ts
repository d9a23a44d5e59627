/**
 * The merchant's own pages a payment page links back to (a link's `success_url` and
 * `cancel_url`). The editor and the API accept only http(s) addresses; they are checked again
 * here, at render, so a value that reached the database another way never becomes a
 * `javascript:` or `data:` link on a customer's page.
 */
export function httpUrl(value: string | null | undefined): URL | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The receipt's "Return to {merchant}": success_url with `transaction_id` added (its own query kept). */
export function successReturnUrl(successUrl: string | null | undefined, transactionId: string): string | undefined {
  const url = httpUrl(successUrl);
  if (!url) return undefined;
  url.searchParams.set('transaction_id', transactionId);
  return url.toString();
}

/** The form's "Cancel and return to {merchant}". */
export const cancelReturnUrl = (cancelUrl: string | null | undefined): string | undefined => httpUrl(cancelUrl)?.toString();
