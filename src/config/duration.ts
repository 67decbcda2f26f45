// Durations as the Collector writes them (Go's time.ParseDuration): "500ms", "1m30s", "2h", "0".

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3,
  'μs': 1e-3,
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
};

const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/** Milliseconds for a non-negative Go duration string, or undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  if (text === '0') return 0;
  if (text === '') return undefined;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < text.length) {
    const match = PART.exec(text);
    if (match === null) return undefined;
    total += Number(match[1]) * (UNIT_MS[match[2] as string] as number);
  }
  return total;
}

export function isDuration(text: string): boolean {
  return parseDuration(text) !== undefined;
}

/** For settings already validated by the schema's `duration` format. */
export function durationMs(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new TypeError(`not a duration: ${JSON.stringify(text)}`);
  return ms;
}
