/** Times as the console shows them: UTC, to the minute (or the second, in the audit log). */
export const minuteUtc = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
export const secondUtc = (d: Date) => `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
/** A time that may not have happened yet (never used, no expiry): a dash. */
export const minuteUtcOrDash = (d: Date | null) => (d ? minuteUtc(d) : '—');
