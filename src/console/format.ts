import type { Link } from '../domain/links/service.ts';
import { formatMoney } from '../domain/money.ts';
import { parseTimeOffset } from '../domain/schedules/recurrence.ts';
import { offsetInWords } from './recurrence-words.ts';

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

/** A time as the schedule it belongs to reads it: in its own UTC offset, with UTC and ISO 8601 for a title and `<time datetime>`. */
export interface TimeInOffset {
  /** "2026-12-01 07:00 UTC+08:00". */
  local: string;
  /** "2026-11-30 23:00 UTC". */
  utc: string;
  iso: string;
}

/** `offset` as stored on a schedule (`+08:00`); an unreadable one shows UTC rather than a wrong local time. */
export function timeInOffset(d: Date, offset: string): TimeInOffset {
  const minutes = parseTimeOffset(offset);
  const shown = minutes === undefined ? 0 : minutes;
  const local = new Date(d.getTime() + shown * 60_000).toISOString().slice(0, 16).replace('T', ' ');
  return { local: `${local} ${offsetInWords(minutes === undefined ? '+00:00' : offset)}`, utc: minuteUtc(d), iso: d.toISOString() };
}
