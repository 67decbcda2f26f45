// The time ranges a view offers: the last 15 minutes, hour, day or week up to now, or a custom
// from/to. A range is resolved to nanoseconds when a query is made, so "last hour" moves with the clock.

export const PRESETS = { '15m': 15 * 60, '1h': 3600, '24h': 24 * 3600, '7d': 7 * 24 * 3600 } as const;
export type Preset = keyof typeof PRESETS;

export type Range = { preset: Preset } | { from: string; to: string };

export const DEFAULT_RANGE: Range = { preset: '1h' };

/** Range → [from, to) in nanoseconds since the epoch, given now in milliseconds. */
export function resolveRange(range: Range, nowMs: number): { from: bigint; to: bigint } {
  if ('preset' in range) {
    const to = BigInt(Math.floor(nowMs)) * 1_000_000n;
    return { from: to - BigInt(PRESETS[range.preset]) * 1_000_000_000n, to };
  }
  return { from: BigInt(range.from), to: BigInt(range.to) };
}

/** The URL's `range` (a preset) or `from`/`to` (nanoseconds) → a Range; anything else is the default. */
export function rangeFromParams(params: URLSearchParams): Range {
  const from = params.get('from');
  const to = params.get('to');
  if (from !== null && to !== null && /^\d+$/.test(from) && /^\d+$/.test(to) && BigInt(from) < BigInt(to)) return { from, to };
  const preset = params.get('range');
  if (preset !== null && preset in PRESETS) return { preset: preset as Preset };
  return DEFAULT_RANGE;
}

/** The members a Range writes into the URL; the others of the pair are removed. */
export function rangeToParams(range: Range, params: URLSearchParams): void {
  params.delete('range');
  params.delete('from');
  params.delete('to');
  if ('preset' in range) {
    if (range.preset !== (DEFAULT_RANGE as { preset: Preset }).preset) params.set('range', range.preset);
    return;
  }
  params.set('from', range.from);
  params.set('to', range.to);
}
