import type { Link } from '../domain/links/service.ts';
import { formatMoney } from '../domain/money.ts';

/** Times as the console shows them: UTC, to the minute (or the second, in the audit log). */
export const minuteUtc = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
export const secondUtc = (d: Date) => `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
/** A time that may not have happened yet (never used, no expiry): a dash. */
export const minuteUtcOrDash = (d: Date | null) => (d ? minuteUtc(d) : '—');

/** A link's amount as the list shows it: fixed, or the bounds of an open amount. */
export function linkAmountLabel(l: Link): string {
  if (l.amountMinor !== null) return formatMoney(l.amountMinor, l.currency);
  const min = l.minAmountMinor === null ? undefined : formatMoney(l.minAmountMinor, l.currency);
  const max = l.maxAmountMinor === null ? undefined : formatMoney(l.maxAmountMinor, l.currency);
  if (min && max) return `Open, ${min}–${max}`;
  if (min) return `Open, at least ${min}`;
  if (max) return `Open, up to ${max}`;
  return `Open, any amount in ${l.currency}`;
}
