// Time zones for Time(), through the runtime's Intl data, held to what Go's time package would do:
// which location names load (time.LoadLocation), the offset of a zone at an instant, the instant
// of a wall-clock time in a zone (as Go's time.Date picks it), and the offset a zone abbreviation
// in a text stands for.

/** The system's zone, as Go's time.Local. */
export const LOCAL_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The names without a '/' in Go's zoneinfo (tzdata's top-level files, the backward links among
 * them). ICU knows more (PST, BST, JST, IST, ...), for zones Go has no such name for.
 */
const TOP_LEVEL = new Set([
  'CET', 'CST6CDT', 'Cuba', 'EET', 'EST', 'EST5EDT', 'Egypt', 'Eire', 'Factory', 'GB', 'GB-Eire', 'GMT', 'GMT+0', 'GMT-0', 'GMT0',
  'Greenwich', 'HST', 'Hongkong', 'Iceland', 'Iran', 'Israel', 'Jamaica', 'Japan', 'Kwajalein', 'Libya', 'MET', 'MST', 'MST7MDT',
  'NZ', 'NZ-CHAT', 'Navajo', 'PRC', 'PST8PDT', 'Poland', 'Portugal', 'ROC', 'ROK', 'Singapore', 'Turkey', 'UCT', 'UTC',
  'Universal', 'W-SU', 'WET', 'Zulu',
]);

/**
 * The offset a top-level name that a text's %Z can spell stands for: the Collector loads the
 * location of that name and reads the name there (the zone's standard offset), or, where that
 * location has no such abbreviation, as a made-up zone of offset 0. MET is Europe/Brussels since
 * tzdata 2024b, which has no MET.
 */
const TOP_LEVEL_ABBREVIATIONS: ReadonlyMap<string, number> = new Map([
  ['CET', 3600], ['EET', 7200], ['EST', -18000], ['GMT', 0], ['HST', -36000], ['MET', 0], ['MST', -25200],
  ['PRC', 0], ['ROC', 0], ['ROK', 0], ['UCT', 0], ['WET', 0],
]);

/**
 * English locales whose short zone names are tzdata's abbreviations: en-US has EST and PST but
 * "GMT+1" for Berlin, en-GB has CET, CEST and BST, the others IST, AEST, NZST, SAST.
 */
const NAME_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'en-IE', 'en-NZ', 'en-ZA'];

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string, locale = 'en-US'): Intl.DateTimeFormat {
  const key = `${locale} ${zone}`;
  let format = formatters.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, {
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
    formatters.set(key, format);
  }
  return format;
}

/**
 * The zone Go's time.LoadLocation(`name`) gives, as the runtime knows it, or undefined where Go
 * fails: "UTC" and "Local" (the system's zone); else, in the case tzdata writes it, an Area/Location
 * name or one of Go's top-level names. ICU's own legacy ids (BST is Asia/Dhaka there) and any
 * other case are refused, as Go, which reads the name as a file's, refuses them.
 */
export function loadLocation(name: string): string | undefined {
  if (name === 'UTC') return 'UTC';
  if (name === 'Local') return LOCAL_ZONE;
  if (!TOP_LEVEL.has(name) && (!name.includes('/') || name.startsWith('SystemV/'))) return undefined;
  let resolved: string;
  try {
    resolved = formatter(name).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  // ICU matches in any case; where it hands the name back (not a link it resolved), the case shows.
  if (resolved.toLowerCase() === name.toLowerCase() && resolved !== name) return undefined;
  return name;
}

/** Milliseconds since the epoch of a wall-clock time read as UTC; years 0 to 99 are not 1900 to 1999. */
export function wallMillis(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime();
}

function parts(zone: string, utcMillis: number, locale?: string): { offset: number; name: string } {
  const fields: Record<string, string> = {};
  for (const part of formatter(zone, locale).formatToParts(new Date(utcMillis))) fields[part.type] = part.value;
  const year = Number(fields.year) * (fields.era === 'BC' ? -1 : 1) + (fields.era === 'BC' ? 1 : 0);
  const wall = wallMillis(year, Number(fields.month), Number(fields.day), Number(fields.hour), Number(fields.minute), Number(fields.second));
  return { offset: Math.round((wall - Math.floor(utcMillis / 1000) * 1000) / 1000), name: fields.timeZoneName ?? '' };
}

/** Seconds east of UTC in `zone` at an instant. */
export const offsetAt = (zone: string, utcMillis: number): number => parts(zone, utcMillis).offset;

/** The instant (ms) of a wall-clock time (given as ms read as UTC) in `zone`: the offset in effect then, as Go's time.Date chooses it. */
export function instantOf(zone: string, wall: number): number {
  const first = offsetAt(zone, wall);
  const guess = wall - first * 1000;
  const second = offsetAt(zone, guess);
  return second === first ? guess : wall - second * 1000;
}

const abbreviations = new Map<string, ReadonlyMap<string, number>>();

/**
 * A zone's abbreviations and their offsets (seconds east), from the runtime's English short
 * names in January and July of 2000 to 2035; names the runtime makes up for zones without one
 * ("GMT+9") are no abbreviation of the zone in tzdata, so are left out. Built once per zone.
 */
function abbreviationsOf(zone: string): ReadonlyMap<string, number> {
  let names = abbreviations.get(zone);
  if (names === undefined) {
    const found = new Map<string, number>();
    for (let year = 2000; year <= 2035; year++) {
      for (const month of [0, 6]) {
        const at = Date.UTC(year, month, 15);
        for (const locale of NAME_LOCALES) {
          const { offset, name } = parts(zone, at, locale);
          if (!/^GMT[+-]/.test(name) && !found.has(name)) found.set(name, offset);
        }
      }
    }
    names = found;
    abbreviations.set(zone, names);
  }
  return names;
}

/**
 * The offset (seconds east) that the zone abbreviation `name` in a text stands for when read in
 * `zone`, as Go's time.Parse and the Collector read it; undefined where the Collector fails
 * ("failed to load location X").
 */
export function abbreviationOffset(zone: string, name: string): number | undefined {
  // Go's lookupName: an abbreviation the zone uses at any time of the year means its offset then.
  const own = abbreviationsOf(zone).get(name);
  if (own !== undefined) return own;
  // Go makes up a zone named GMT+3, of that offset, but keeps the wall clock read as UTC.
  if (name.length > 3 && name.startsWith('GMT')) return 0;
  // Anything else is a zone of offset 0, whose name the Collector then loads as a location.
  return TOP_LEVEL_ABBREVIATIONS.get(name);
}
