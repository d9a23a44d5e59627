/**
 * A schedule's recurrence in words, for the console: `0 0 7 1 * *` at `+08:00` →
 * "Every month on the 1st at 07:00, UTC+08:00". Pure; reads the six cron fields as stored
 * (second minute hour day-of-month month day-of-week, croner's syntax). What it cannot phrase
 * faithfully gets an honest generic sentence instead of a guess.
 */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const WEEKDAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const NTH = ['first', 'second', 'third', 'fourth', 'fifth'];

/** The sentence for a pattern this formatter cannot put into words (the page lists the next charges beside it). */
export const CUSTOM_RECURRENCE = 'On a custom recurrence';

interface FieldSpec {
  min: number;
  max: number;
  names?: string[];
  /** The first name's number (months are 1-based). */
  nameBase?: number;
}

const SPECS = {
  second: { min: 0, max: 59 },
  minute: { min: 0, max: 59 },
  hour: { min: 0, max: 23 },
  day: { min: 1, max: 31 },
  month: { min: 1, max: 12, names: MONTH_NAMES, nameBase: 1 },
  weekday: { min: 0, max: 7, names: WEEKDAY_NAMES, nameBase: 0 },
} satisfies Record<string, FieldSpec>;

const fieldValue = (text: string, spec: FieldSpec): number | undefined => {
  if (/^\d{1,2}$/.test(text)) {
    const n = Number(text);
    return n >= spec.min && n <= spec.max ? n : undefined;
  }
  const index = spec.names?.indexOf(text.toUpperCase()) ?? -1;
  return index >= 0 ? index + (spec.nameBase ?? 0) : undefined;
};

/** The values a field selects (sorted, unique), or undefined for syntax this formatter does not read (L, W, #). */
export function fieldValues(field: string, spec: FieldSpec): number[] | undefined {
  const values = new Set<number>();
  for (const part of field.split(',')) {
    const match = /^(\*|\?|[0-9A-Za-z]+(?:-[0-9A-Za-z]+)?)(?:\/(\d{1,2}))?$/.exec(part);
    if (!match) return undefined;
    const [, range = '', stepText] = match;
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step < 1) return undefined;
    let from: number | undefined;
    let to: number | undefined;
    if (range === '*' || range === '?') {
      from = spec.min;
      to = spec.max;
    } else if (range.includes('-')) {
      const [a = '', b = ''] = range.split('-');
      from = fieldValue(a, spec);
      to = fieldValue(b, spec);
    } else {
      from = fieldValue(range, spec);
      to = stepText === undefined ? from : spec.max;
    }
    if (from === undefined || to === undefined || from > to) return undefined;
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return [...values].sort((a, b) => a - b);
}

const pad = (n: number) => String(n).padStart(2, '0');
const isAll = (values: number[], spec: FieldSpec) => values.length === spec.max - spec.min + 1;
const isWildcard = (field: string) => field === '*' || field === '?';

/** "a", "a and b", "a, b and c". */
export const listInWords = (items: string[]) => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** 1 → "1st", 22 → "22nd", 13 → "13th". */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th'}`;
}

/** `+08:00` → "UTC+08:00"; `+00:00` → "UTC". */
export const offsetInWords = (offset: string) => (offset === '+00:00' || offset === '-00:00' ? 'UTC' : `UTC${offset}`);

/** An evenly spaced run of at least `least` values: its step. */
const stepOf = (values: number[], least = 3): number | undefined => {
  if (values.length < least) return undefined;
  const step = values[1]! - values[0]!;
  return values.every((v, i) => i === 0 || v - values[i - 1]! === step) ? step : undefined;
};

/** The time-of-day part: "at 07:00" (with `periodic` when it repeats within the day, e.g. "every 15 minutes"). */
function timeOfDay(secondField: string, minuteField: string, hourField: string): { text: string; periodic: boolean } | undefined {
  const seconds = fieldValues(secondField, SPECS.second);
  const minutes = fieldValues(minuteField, SPECS.minute);
  const hours = fieldValues(hourField, SPECS.hour);
  if (!seconds || !minutes || !hours || seconds.length !== 1) return undefined;
  const s = seconds[0]!;
  const clock = (h: number, m: number) => `${pad(h)}:${pad(m)}${s === 0 ? '' : `:${pad(s)}`}`;
  const pastTheHour = (m: number) =>
    m === 0 && s === 0
      ? 'on the hour'
      : `at ${m === 0 ? '' : `${m} minute${m === 1 ? '' : 's'} `}${s === 0 ? '' : `${s} second${s === 1 ? '' : 's'} `}past the hour`;
  const times = hours.flatMap((h) => minutes.map((m) => clock(h, m)));
  if (times.length <= 6) return { text: `at ${listInWords(times)}`, periodic: false };
  if (minutes.length === 1) {
    const m = minutes[0]!;
    if (isAll(hours, SPECS.hour)) return { text: `every hour ${pastTheHour(m)}`, periodic: true };
    const step = stepOf(hours);
    if (step !== undefined) return { text: `every ${step} hours from ${clock(hours[0]!, m)} to ${clock(hours.at(-1)!, m)}`, periodic: true };
    return undefined;
  }
  const minuteStep = stepOf(minutes, 2);
  // Every k minutes around the clock: the minutes cover the hour evenly from :00.
  if (minuteStep !== undefined && minutes[0] === 0 && 60 % minuteStep === 0 && minutes.length === 60 / minuteStep) {
    const every = `${minuteStep === 1 ? 'every minute' : `every ${minuteStep} minutes`}${s === 0 ? '' : ` (at ${s} seconds past)`}`;
    if (isAll(hours, SPECS.hour)) return { text: every, periodic: true };
    if (hours.length === 1) return { text: `${every} from ${clock(hours[0]!, 0)} to ${clock(hours[0]!, minutes.at(-1)!)}`, periodic: true };
    const contiguous = hours.at(-1)! - hours[0]! === hours.length - 1;
    if (contiguous) return { text: `${every} from ${clock(hours[0]!, 0)} to ${clock(hours.at(-1)!, minutes.at(-1)!)}`, periodic: true };
  }
  return undefined;
}

const monthList = (months: number[]) => listInWords(months.map((m) => MONTHS[m - 1]!));

/** "the 1st", "the 1st and 15th", "the last day", "every day from the 1st to the 7th". */
function daysOfMonth(field: string): string | undefined {
  if (field.toUpperCase() === 'L') return 'the last day';
  const days = fieldValues(field, SPECS.day);
  if (!days) return undefined;
  const contiguous = days.length >= 3 && days.at(-1)! - days[0]! === days.length - 1;
  if (contiguous) return `every day from the ${ordinal(days[0]!)} to the ${ordinal(days.at(-1)!)}`;
  return `the ${listInWords(days.map(ordinal))}`;
}

/** "Monday", "Monday and Thursday", "weekday (Monday to Friday)". */
function weekdays(field: string): string | undefined {
  const values = fieldValues(field, SPECS.weekday);
  if (!values) return undefined;
  const days = [...new Set(values.map((d) => d % 7))].sort((a, b) => a - b);
  if (days.length === 7) return 'day';
  if (days.join() === '1,2,3,4,5') return 'weekday (Monday to Friday)';
  // The week as people read it, from Monday.
  const fromMonday = [...days.filter((d) => d !== 0), ...days.filter((d) => d === 0)];
  return listInWords(fromMonday.map((d) => WEEKDAYS[d]!));
}

/** `1#2` → "second Monday", `5L` → "last Friday": one weekday of the month. */
function nthWeekday(field: string): string | undefined {
  const nth = /^([0-7]|[A-Za-z]{3})#([1-5])$/.exec(field);
  const last = /^([0-7]|[A-Za-z]{3})L$/.exec(field);
  const day = fieldValue((nth ?? last)?.[1] ?? '', SPECS.weekday);
  if (day === undefined) return undefined;
  return `${nth ? NTH[Number(nth[2]) - 1] : 'last'} ${WEEKDAYS[day % 7]}`;
}

/** Which days, as the sentence's beginning: "Every day", "Every Monday", "Every month on the 1st", "Every year on 1 January". */
function whichDays(dayField: string, monthField: string, weekdayField: string): string | undefined {
  const months = fieldValues(monthField, SPECS.month);
  if (!months) return undefined;
  const everyMonth = isAll(months, SPECS.month);
  const inMonths = everyMonth ? '' : ` in ${monthList(months)}`;
  const anyDay = isWildcard(dayField);
  const anyWeekday = isWildcard(weekdayField);
  const nth = anyDay ? nthWeekday(weekdayField) : undefined;
  if (nth) return everyMonth ? `Every month on the ${nth}` : `On the ${nth} of ${monthList(months)}`;
  if (anyDay && anyWeekday) return `Every day${inMonths}`;
  if (anyDay) {
    const week = weekdays(weekdayField);
    return week ? `Every ${week}${inMonths}` : undefined;
  }
  const days = daysOfMonth(dayField);
  if (!days) return undefined;
  let start: string;
  if (everyMonth) start = `Every month on ${days}`;
  else if (months.length === 1 && /^the \d/.test(days) && !days.includes(' and '))
    start = `Every year on ${days.slice(4).replace(/\D+$/, '')} ${MONTHS[months[0]! - 1]}`;
  else if (months.length === 1) start = `Every ${MONTHS[months[0]! - 1]} on ${days}`;
  else start = `Every ${monthList(months)} on ${days}`;
  if (anyWeekday) return start;
  // Both restricted: croner (like Vixie cron) fires on a day that matches either.
  const week = weekdays(weekdayField);
  return week && week !== 'day' ? `${start}, and every ${week}${inMonths}` : undefined;
}

/**
 * The recurrence as a sentence. `cronPattern` is the six fields as stored, `offset` the schedule's
 * UTC offset (`+08:00`). Unreadable or unusual syntax → `CUSTOM_RECURRENCE` with the offset.
 */
export function recurrenceInWords(cronPattern: string, offset: string, every = 1): string {
  const words = recurrenceOnce(cronPattern, offset);
  return every > 1 ? everyInWords(words, every) : words;
}

/** A schedule that runs on one occurrence in `every` (a subscription every 2 weeks): the period first. */
function everyInWords(words: string, every: number): string {
  const weekday = new RegExp(`^Every (${WEEKDAYS.join('|')}) `);
  const month = new RegExp(`^Every (${MONTHS.join('|')}) on the last day `);
  if (weekday.test(words)) return words.replace(weekday, `Every ${every} weeks on $1 `);
  if (words.startsWith('Every month ')) return words.replace('Every month ', `Every ${every} months `);
  if (words.startsWith('Every year ')) return words.replace('Every year ', `Every ${every} years `);
  if (month.test(words)) return words.replace(month, `Every ${every} years on the last day of $1 `);
  return `${words}, one occurrence in every ${every}`;
}

function recurrenceOnce(cronPattern: string, offset: string): string {
  const zone = offsetInWords(offset);
  const fields = cronPattern.trim().split(/\s+/);
  if (fields.length !== 6) return `${CUSTOM_RECURRENCE}, ${zone}`;
  const [second, minute, hour, day, month, weekday] = fields as [string, string, string, string, string, string];
  const days = whichDays(day, month, weekday);
  const time = timeOfDay(second, minute, hour);
  if (!days || !time) return `${CUSTOM_RECURRENCE}, ${zone}`;
  if (time.periodic) {
    const periodic = time.text.charAt(0).toUpperCase() + time.text.slice(1);
    return days === 'Every day' ? `${periodic}, ${zone}` : `${days}, ${time.text}, ${zone}`;
  }
  return `${days} ${time.text}, ${zone}`;
}
