import { Cron } from 'croner';

/**
 * Recurrence of a schedule (spec §2.2 data.schedule): six cron fields
 * `second minute hour day_of_month month day_of_week`, evaluated by croner at a fixed UTC
 * offset (`+08:00`), never a time zone, so there is no daylight-saving ambiguity.
 * Day-of-month and day-of-week combine like Vixie cron: when both are restricted, a day that
 * matches either fires. `31` fires only in months that have a 31st; `L` is the last day.
 */
export const recurrenceFields = ['second', 'minute', 'hour', 'day_of_month', 'month', 'day_of_week'] as const;
export type RecurrenceField = (typeof recurrenceFields)[number];
export type Recurrence = Record<RecurrenceField, string>;

/** What each field accepts, for error messages. */
const fieldHelp: Record<RecurrenceField, string> = {
  second: '0-59',
  minute: '0-59',
  hour: '0-23',
  day_of_month: '1-31 or L (last day)',
  month: '1-12 or JAN-DEC',
  day_of_week: '0-7 (0 and 7 are Sunday) or SUN-SAT',
};

/** Where each field sits in a probe pattern that is otherwise valid. */
const probe: Recurrence = { second: '0', minute: '0', hour: '0', day_of_month: '1', month: '1', day_of_week: '*' };

/** Characters a field may hold: digits, names, `*`, `?`, ranges, steps, lists, L, W, #. */
const FIELD_SHAPE = /^[0-9A-Za-z*?,\-/#]{1,100}$/;

export interface ParsedRecurrence {
  cronPattern: string;
  offsetMinutes: number;
}

export type RecurrenceResult = { ok: true; value: ParsedRecurrence } | { ok: false; messages: Record<string, string[]> };

const OFFSET = /^([+-])(\d{2}):(\d{2})$/;

/** `+08:00` → 480; undefined when not in the form sign, hours, colon, minutes within ±14:00. */
export function parseTimeOffset(value: string): number | undefined {
  const match = OFFSET.exec(value);
  if (!match) return undefined;
  const hours = Number(match[2]);
  const minutes = Number(match[3]);
  if (minutes > 59) return undefined;
  const total = hours * 60 + minutes;
  if (total > 14 * 60) return undefined;
  return match[1] === '-' ? -total : total;
}

export const cronFor = (cronPattern: string, offsetMinutes: number) => new Cron(cronPattern, { utcOffset: offsetMinutes, mode: '6-part' });

/**
 * Validates the six fields and the offset. Refuses a pattern that never fires and one that
 * fires more often than `minIntervalSeconds`, saying why. Message keys are `prefix` + field.
 */
export function parseRecurrence(
  fields: Recurrence,
  timeOffset: string,
  opts: { minIntervalSeconds: number; now: Date; prefix?: { schedule: string; timeOffset: string } },
): RecurrenceResult {
  const prefix = opts.prefix ?? { schedule: 'schedule.', timeOffset: 'time_offset' };
  const messages: Record<string, string[]> = {};
  const offsetMinutes = parseTimeOffset(timeOffset);
  if (offsetMinutes === undefined) messages[prefix.timeOffset] = ['must be a UTC offset such as +08:00, -05:30 or +00:00 (between -14:00 and +14:00)'];
  for (const field of recurrenceFields) {
    const value = fields[field].trim();
    const key = prefix.schedule + field;
    if (!FIELD_SHAPE.test(value)) {
      messages[key] = [`must be one cron field (${fieldHelp[field]}, *, ranges like 1-5, steps like */15, lists like 1,15), without spaces`];
      continue;
    }
    try {
      cronFor(recurrenceFields.map((f) => (f === field ? value : probe[f])).join(' '), 0);
    } catch (error) {
      const reason = (error as Error).message.replace(/^CronPattern:\s*/, '');
      messages[key] = [`is not a valid cron field: ${reason}; use ${fieldHelp[field]}, *, ranges like 1-5, steps like */15 or lists like 1,15`];
    }
  }
  if (Object.keys(messages).length > 0) return { ok: false, messages };
  const cronPattern = recurrenceFields.map((f) => fields[f].trim()).join(' ');
  let cron: Cron;
  try {
    cron = cronFor(cronPattern, offsetMinutes!);
  } catch (error) {
    return {
      ok: false,
      messages: { [prefix.schedule.replace(/\.$/, '')]: [`is not a valid recurrence: ${(error as Error).message.replace(/^CronPattern:\s*/, '')}`] },
    };
  }
  if (!cron.nextRun(opts.now)) {
    return {
      ok: false,
      messages: {
        [prefix.schedule.replace(/\.$/, '')]: [
          `never fires: no date matches ${cronPattern} (for example day 30 or 31 of February); check day_of_month and month`,
        ],
      },
    };
  }
  const gap = minimumGapSeconds(cronPattern, offsetMinutes!, opts.now);
  if (gap < opts.minIntervalSeconds) {
    return {
      ok: false,
      messages: {
        [prefix.schedule.replace(/\.$/, '')]: [
          `fires too often: two charges can be ${gap} second${gap === 1 ? '' : 's'} apart, and charges must be at least ${opts.minIntervalSeconds} seconds apart; use a single value in second (for example "0")`,
        ],
      },
    };
  }
  return { ok: true, value: { cronPattern, offsetMinutes: offsetMinutes! } };
}

/**
 * The shortest time between two consecutive firings. Times of day form the set
 * hours × minutes × seconds; gaps inside a day come from that set, and the gap across midnight
 * counts only when the pattern fires on two consecutive days (checked on its next 400 firing days).
 */
export function minimumGapSeconds(cronPattern: string, offsetMinutes: number, now: Date): number {
  const [second, minute, hour, dom, month, dow] = cronPattern.split(' ') as [string, string, string, string, string, string];
  const valuesOf = (field: string, max: number, position: 0 | 1 | 2) => {
    const fieldsFor = ['0', '0', '0'];
    fieldsFor[position] = field;
    // Enumerate one period of the field through croner itself, so names, steps and lists agree.
    const cron = cronFor(`${fieldsFor[0]} ${fieldsFor[1]} ${fieldsFor[2]} 1 1 *`, 0);
    const start = new Date(Date.UTC(2001, 0, 1) - 1000);
    const unit = position === 0 ? 1 : position === 1 ? 60 : 3600;
    const runs = cron.nextRuns(max, start).map((d) => Math.round((d.getTime() - Date.UTC(2001, 0, 1)) / 1000 / unit));
    return [...new Set(runs.filter((v) => v >= 0 && v < max))];
  };
  const seconds = valuesOf(second, 60, 0);
  const minutes = valuesOf(minute, 60, 1);
  const hours = valuesOf(hour, 24, 2);
  const times: number[] = [];
  for (const h of hours) for (const m of minutes) for (const s of seconds) times.push(h * 3600 + m * 60 + s);
  times.sort((a, b) => a - b);
  let gap = Number.POSITIVE_INFINITY;
  for (let i = 1; i < times.length; i++) gap = Math.min(gap, times[i]! - times[i - 1]!);
  const acrossMidnight = 86_400 - times[times.length - 1]! + times[0]!;
  if (acrossMidnight < gap) {
    const days = cronFor(`0 0 0 ${dom} ${month} ${dow}`, offsetMinutes).nextRuns(400, now);
    for (let i = 1; i < days.length; i++) {
      if (days[i]!.getTime() - days[i - 1]!.getTime() === 86_400_000) {
        gap = acrossMidnight;
        break;
      }
    }
  }
  // A pattern that fires once a day (or less) and never on consecutive days: at least a day apart.
  return Number.isFinite(gap) ? gap : 86_400;
}

/**
 * Parsed recurrences, for the scheduler, which computes two occurrences of every schedule it claims:
 * parsing a pattern costs more than finding its runs. A Cron without a callback keeps no state
 * between calls. At most CRON_CACHE_MAX, oldest out first.
 */
const CRON_CACHE_MAX = 1000;
const crons = new Map<string, Cron>();
function cachedCron(p: ParsedRecurrence): Cron {
  const key = `${p.offsetMinutes} ${p.cronPattern}`;
  let cron = crons.get(key);
  if (!cron) {
    if (crons.size >= CRON_CACHE_MAX) crons.delete(crons.keys().next().value!);
    cron = cronFor(p.cronPattern, p.offsetMinutes);
    crons.set(key, cron);
  }
  return cron;
}

/** The first occurrence strictly after `after` (every occurrence; a schedule's own runs: nextRunAfter). */
export function nextOccurrence(p: ParsedRecurrence, after: Date): Date | null {
  return cachedCron(p).nextRun(after);
}

/** The latest occurrence at or before `at` (occurrences fall on whole seconds). */
function latestOccurrenceAtOrBefore(p: ParsedRecurrence, at: Date): Date | null {
  const ceiling = new Date(Math.floor(at.getTime() / 1000) * 1000 + 1000);
  return cachedCron(p).previousRuns(1, ceiling)[0] ?? null;
}

/**
 * When a schedule runs: on one occurrence of its recurrence in every `every`, counted from the
 * occurrence `anchorAt` (every 2 weeks, every 5 months: periods six cron fields cannot repeat). With
 * `every` 1 (integrator-signed schedules) every occurrence is a run and the anchor plays no part.
 */
export interface Cadence extends ParsedRecurrence {
  every: number;
  anchorAt: Date | null;
}

export const cadenceOf = (s: { cronPattern: string; timeOffset: string; every: number; anchorAt: Date | null }): Cadence => ({
  cronPattern: s.cronPattern,
  offsetMinutes: parseTimeOffset(s.timeOffset) ?? 0,
  every: s.every,
  anchorAt: s.anchorAt,
});

const counted = (c: Cadence): c is Cadence & { anchorAt: Date } => c.every > 1 && c.anchorAt !== null;

/** The first occurrence at or after the whole second `at` falls in (occurrences fall on whole seconds). */
export const occurrenceAtOrAfter = (p: ParsedRecurrence, at: Date) => nextOccurrence(p, new Date(Math.floor(at.getTime() / 1000) * 1000 - 1000));

function step(c: Cadence, from: Date): Date | null {
  let at: Date | null = from;
  for (let i = 0; i < c.every && at; i++) at = nextOccurrence(c, at);
  return at;
}

/** Where counting may start: `from` when it is a run at or before `at` the caller knows (its next_run_at, a due time), else the anchor. */
const countStart = (c: Cadence & { anchorAt: Date }, at: Date, from: Date | null | undefined) =>
  from && from.getTime() <= at.getTime() ? from : occurrenceAtOrAfter(c, c.anchorAt);

/**
 * The schedule's first run strictly after `after`: its next_run_at after a claim, a run-now, a
 * resumption, a payment link's expiry, the console's later charges. Every such place goes through here.
 */
export function nextRunAfter(c: Cadence, after: Date, from?: Date | null): Date | null {
  if (!counted(c)) return nextOccurrence(c, after);
  let at = countStart(c, after, from);
  while (at && at.getTime() <= after.getTime()) at = step(c, at);
  return at;
}

/** The schedule's latest run at or before `at` (a claim's catch-up collapses missed runs into it). */
export function latestRunAtOrBefore(c: Cadence, at: Date, from?: Date | null): Date | null {
  if (!counted(c)) return latestOccurrenceAtOrBefore(c, at);
  let run = countStart(c, at, from);
  if (!run || run.getTime() > at.getTime()) return null;
  for (let next = step(c, run); next && next.getTime() <= at.getTime(); next = step(c, next)) run = next;
  return run;
}

/** How many runs fall after `after` and up to `until`, counting at most `limit` (a cancellation says how many charges it stops). */
export function countRuns(c: Cadence, after: Date, until: Date, limit: number, from?: Date | null): number {
  let n = 0;
  for (let at = nextRunAfter(c, after, from); at !== null && at <= until && n < limit; at = nextRunAfter(c, at, at)) n++;
  return n;
}

/** ISO 8601 in the schedule's own offset: `2026-05-01T09:00:00.000+08:00`. */
export function formatInOffset(date: Date, offsetMinutes: number): string {
  const local = new Date(date.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 23);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
