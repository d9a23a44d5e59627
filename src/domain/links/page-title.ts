/**
 * A payment page's <title>: "{what} · {merchant}", but never "Acme Books · Acme Books" when the
 * link is named after its merchant.
 */
export function pageTitle(title: string, merchantName: string | undefined): string {
  const merchant = merchantName ?? 'paylink';
  return title.trim().toLowerCase() === merchant.trim().toLowerCase() ? title : `${title} · ${merchant}`;
}
