// OTTL's time converters, as the Collector's: Time (strptime), Now, Unix, UnixNano/Micro/Milli/
// Seconds, TruncateTime and Duration. Times and durations live only while a statement runs.
import { durationOf, get, intOf, stringOf, timeOf, type Converter } from './arguments.js';
import { OttlRuntimeError } from './errors.js';
import { compileStrptime, parseStrptime } from './strptime.js';
import { NANOS_PER_SECOND, OttlTime, parseDuration, truncateTime, unixMicro, unixMilli, unixSeconds } from './time.js';
import { loadLocation, LOCAL_ZONE } from './zones.js';

/** The zone a Time() reads its text in: the location given, UTC for a format ending in Z (a literal Z or %Z), else the system's. */
function zoneFor(location: string | undefined, format: string): string {
  if (location !== undefined && location !== '') {
    const zone = loadLocation(location);
    if (zone === undefined) throw new Error(`failed to load location ${location}: unknown time zone ${location}`);
    return zone;
  }
  // As the Collector, which tests the strptime format: one ending in %Z is read in UTC too.
  return format.endsWith('Z') ? 'UTC' : LOCAL_ZONE;
}

function ofTime(name: string, read: (t: OttlTime) => bigint): Converter {
  return { params: [{ name: 'time', kind: 'value' }], bind: ([time]) => (ctx) => read(timeOf(get(time)(ctx), name)) };
}

export const TIME_CONVERTERS: Readonly<Record<string, Converter>> = {
  Time: {
    params: [
      { name: 'time', kind: 'value' },
      { name: 'format', kind: 'literal string' },
      { name: 'location', kind: 'literal string', optional: true },
      { name: 'locale', kind: 'literal string', optional: true },
    ],
    bind([time, format, location, locale]) {
      if (format === '') throw new Error('format cannot be nil');
      const compiled = compileStrptime(format as string);
      const zone = zoneFor(location as string | undefined, format as string);
      // Month and day names are read in English only: another locale would need CLDR's names.
      if (locale !== undefined && !/^en(-|$)/i.test(locale as string)) throw new Error(`unsupported locale '${locale as string}': otelgate reads English names only (en, en-US, ...)`);
      return (ctx) => {
        const text = stringOf(get(time)(ctx), 'Time');
        if (text === '') throw new OttlRuntimeError('time cannot be nil');
        return new OttlTime(parseStrptime(compiled, text, zone));
      };
    },
  },
  Now: { params: [], bind: () => () => new OttlTime(BigInt(Date.now()) * 1_000_000n) },
  Unix: {
    params: [
      { name: 'seconds', kind: 'value' },
      { name: 'nanoseconds', kind: 'value', optional: true },
    ],
    bind: ([seconds, nanoseconds]) => (ctx) => {
      const s = intOf(get(seconds)(ctx), 'Unix');
      const ns = nanoseconds === undefined ? 0n : intOf(get(nanoseconds)(ctx), 'Unix');
      return new OttlTime(s * NANOS_PER_SECOND + ns);
    },
  },
  UnixNano: ofTime('UnixNano', (t) => BigInt.asIntN(64, t.unixNano)),
  UnixMicro: ofTime('UnixMicro', unixMicro),
  UnixMilli: ofTime('UnixMilli', unixMilli),
  UnixSeconds: ofTime('UnixSeconds', unixSeconds),
  TruncateTime: {
    params: [
      { name: 'time', kind: 'value' },
      { name: 'duration', kind: 'value' },
    ],
    bind: ([time, duration]) => (ctx) => truncateTime(timeOf(get(time)(ctx), 'TruncateTime'), durationOf(get(duration)(ctx), 'TruncateTime')),
  },
  Duration: { params: [{ name: 'duration', kind: 'value' }], bind: ([duration]) => (ctx) => parseDuration(stringOf(get(duration)(ctx), 'Duration')) },
};
