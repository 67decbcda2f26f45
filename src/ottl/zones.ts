// Time zones by IANA name, through the runtime's Intl data, for Time(): the offset of a zone at an
// instant, the instant of a wall-clock time in a zone (as Go's time.Date picks it), and a zone's
// abbreviation at an instant.

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The system's zone, as Go's time.Local. */
export const LOCAL_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      timeZoneName: 'short',
    });
    formatters.set(zone, format);
  }
  return format;
}

/** Whether `zone` is a zone the runtime knows (Go's time.LoadLocation succeeding). */
export function knownZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** Milliseconds since the epoch of a wall-clock time read as UTC; years 0 to 99 are not 1900 to 1999. */
export function wallMillis(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime();
}

function parts(zone: string, utcMillis: number): { offset: number; name: string } {
  const fields: Record<string, string> = {};
  for (const part of formatter(zone).formatToParts(new Date(utcMillis))) fields[part.type] = part.value;
  const year = Number(fields.year) * (fields.era === 'BC' ? -1 : 1) + (fields.era === 'BC' ? 1 : 0);
  const wall = wallMillis(year, Number(fields.month), Number(fields.day), Number(fields.hour), Number(fields.minute), Number(fields.second));
  return { offset: Math.round((wall - Math.floor(utcMillis / 1000) * 1000) / 1000), name: fields.timeZoneName ?? '' };
}

/** Seconds east of UTC in `zone` at an instant. */
export const offsetAt = (zone: string, utcMillis: number): number => parts(zone, utcMillis).offset;

/** `zone`'s abbreviation at an instant, as the runtime names it ("EST", or "GMT+1" where it has none). */
export const abbreviationAt = (zone: string, utcMillis: number): string => parts(zone, utcMillis).name;

/** The instant (ms) of a wall-clock time (given as ms read as UTC) in `zone`: the offset in effect then, as Go's time.Date chooses it. */
export function instantOf(zone: string, wall: number): number {
  const first = offsetAt(zone, wall);
  const guess = wall - first * 1000;
  const second = offsetAt(zone, guess);
  return second === first ? guess : wall - second * 1000;
}
