// What the read API and `otelgate query` tests share to build their data: a fixed start time and
// instants after it, nanosecond ISO forms, trace and span ids, and small OTLP JSON builders.

/** 2027-01-15T08:00:00Z in nanoseconds. */
export const T0 = 1_800_000_000_000_000_000n;
/** T0 + `seconds` (to the millisecond). */
export const at = (seconds: number): bigint => T0 + BigInt(Math.round(seconds * 1000)) * 1_000_000n;

function isoWith(ns: bigint, offsetHours: number): string {
  const seconds = ns / 1_000_000_000n + BigInt(offsetHours * 3600);
  const zone = offsetHours === 0 ? 'Z' : `+${String(offsetHours).padStart(2, '0')}:00`;
  return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}.${(ns % 1_000_000_000n).toString().padStart(9, '0')}${zone}`;
}
/** ISO 8601 with all nine fraction digits, UTC. */
export const iso = (ns: bigint): string => isoWith(ns, 0);
/** The same instant written with a +01:00 offset. */
export const isoPlusOne = (ns: bigint): string => isoWith(ns, 1);

// Times that sit one nanosecond past a whole second, for the boundary tests.
export const T_FAILED = at(3) + 1n; // the log "user login failed"
export const T_USERS2 = at(4) + 1n; // the span "users-2"
export const T_LAT = at(5) + 1n; // the data point "lat"

export const TRACE_A = '5b8efff798038103d269b633813fc60c';
export const TRACE_1 = '4bf92f3577b34da6a3ce929d0e0e4736';
export const TRACE_2 = 'a3ce929d0e0e47364bf92f3577b34da6';
export const TRACE_3 = 'd269b633813fc60c5b8efff798038103';
export const SP = (n: number): string => `00f067aa0ba902b${n}`;

export const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
export const label = (value: string) => str('label', value);
