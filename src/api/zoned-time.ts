/**
 * Wall-clock times in an IANA time zone, for the console's date-time pickers (an
 * `<input type="datetime-local">` holds a time without a zone): read one as UTC, and show a UTC
 * time as the picker's value. Intl's zone data decides the offset, daylight saving included.
 */

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(zone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    // Bounded: only zones Intl knows get here (isTimeZone first), a few hundred at most.
    zoneFormats.set(zone, format);
  }
  return format;
}

export function isTimeZone(zone: string): boolean {
  if (zone.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  try {
    zoneFormat(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock in `zone` at `at` (ms since the epoch), as if it were UTC. */
function wallClock(at: number, zone: string): number {
  const part = Object.fromEntries(
    zoneFormat(zone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return Date.UTC(Number(part.year), Number(part.month) - 1, Number(part.day), Number(part.hour), Number(part.minute), Number(part.second));
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/**
 * `2027-01-31T23:59` in `zone` as a UTC ISO time; undefined when it is not such a time. A time
 * skipped by a daylight-saving change reads as the same clock time after it.
 */
export function zonedTimeToUtc(local: string, zone: string): string | undefined {
  const m = LOCAL_TIME.exec(local);
  if (!m || !isTimeZone(zone)) return undefined;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
  if (Number.isNaN(wall)) return undefined;
  const offset = (at: number) => wallClock(at, zone) - Math.floor(at / 1000) * 1000;
  const first = wall - offset(wall);
  const second = wall - offset(first);
  // Near a change the first guess can use the other side's offset; a clock time in the gap has no
  // instant of its own, and the first guess then reads it with the offset before the change.
  return new Date(second !== first && wallClock(second, zone) === Math.floor(wall / 1000) * 1000 ? second : first).toISOString();
}

/** A UTC time as the picker's value in `zone` (`2027-01-31T23:59`, seconds only when not zero); undefined when not a time. */
export function utcToZonedTime(iso: string, zone: string): string | undefined {
  const at = Date.parse(iso);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(iso) || Number.isNaN(at) || !isTimeZone(zone)) return undefined;
  const text = new Date(wallClock(at, zone)).toISOString();
  return text.slice(17, 19) === '00' ? text.slice(0, 16) : text.slice(0, 19);
}
