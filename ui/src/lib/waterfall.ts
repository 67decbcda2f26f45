// A trace's spans laid out as a waterfall: one row per span, each under its parent, siblings by
// start time, with its offset and width as fractions of the trace's whole time. Times are bigint
// nanoseconds until the very end, so that a trace of long-past or far-future spans keeps its order.

export interface WaterfallSpan {
  span_id: string;
  parent_span_id: string;
  start_time_unix_nano: string;
  end_time_unix_nano: string;
}

export interface WaterfallRow<S> {
  span: S;
  /** 0 for a root; a span whose parent is not in the trace (not arrived, or dropped) is a root. */
  depth: number;
  /** Where the span starts, from 0 (the trace's first start) to 1 (its last end). */
  offset: number;
  /** Its length as a fraction of the trace's; 0 for a span that ends before it starts. */
  width: number;
}

export interface Waterfall<S> {
  rows: WaterfallRow<S>[];
  startNano: bigint;
  durationNano: bigint;
}

const bySpanStart = (a: WaterfallSpan, b: WaterfallSpan): number => {
  const sa = BigInt(a.start_time_unix_nano);
  const sb = BigInt(b.start_time_unix_nano);
  if (sa !== sb) return sa < sb ? -1 : 1;
  return a.span_id < b.span_id ? -1 : a.span_id > b.span_id ? 1 : 0;
};

/**
 * The span a trace is named by, as the read API's trace_summaries chooses it: one without a parent
 * (parent_span_id ''), else any; of those the earliest start; of equal starts the one stored first,
 * which is the last of them in the read API's order (newest first, of equal times the last stored
 * first), the order `spans` are in.
 */
export function rootOf<S extends WaterfallSpan>(spans: readonly S[]): S | undefined {
  let root: S | undefined;
  for (const span of spans) {
    if (root === undefined) {
      root = span;
      continue;
    }
    const orphan = span.parent_span_id === '';
    const rootOrphan = root.parent_span_id === '';
    if (orphan !== rootOrphan) {
      if (orphan) root = span;
      continue;
    }
    if (BigInt(span.start_time_unix_nano) <= BigInt(root.start_time_unix_nano)) root = span;
  }
  return root;
}

export function waterfall<S extends WaterfallSpan>(spans: readonly S[]): Waterfall<S> {
  if (spans.length === 0) return { rows: [], startNano: 0n, durationNano: 0n };
  let start = BigInt(spans[0]!.start_time_unix_nano);
  let end = start;
  const ids = new Set<string>();
  for (const span of spans) {
    const s = BigInt(span.start_time_unix_nano);
    const e = BigInt(span.end_time_unix_nano);
    if (s < start) start = s;
    if (e > end) end = e;
    if (s > end) end = s;
    ids.add(span.span_id);
  }
  const children = new Map<string, S[]>();
  const roots: S[] = [];
  for (const span of spans) {
    const parent = span.parent_span_id;
    if (parent === '' || parent === span.span_id || !ids.has(parent)) {
      roots.push(span);
      continue;
    }
    const list = children.get(parent);
    if (list === undefined) children.set(parent, [span]);
    else list.push(span);
  }
  const duration = end - start;
  // Fractions in floating point only after subtracting the trace's start: the differences fit a double exactly enough.
  const fraction = (ns: bigint): number => (duration === 0n ? 0 : Number(ns) / Number(duration));
  const rows: WaterfallRow<S>[] = [];
  const placed = new Set<S>();
  const place = (span: S, depth: number): void => {
    // A span id sent twice, or parents that point at each other, must not loop.
    if (placed.has(span)) return;
    placed.add(span);
    const s = BigInt(span.start_time_unix_nano);
    const e = BigInt(span.end_time_unix_nano);
    rows.push({ span, depth, offset: fraction(s - start), width: e > s ? fraction(e - s) : 0 });
    const kids = children.get(span.span_id);
    if (kids === undefined) return;
    children.delete(span.span_id);
    kids.sort(bySpanStart);
    for (const kid of kids) place(kid, depth + 1);
  };
  roots.sort(bySpanStart);
  for (const root of roots) place(root, 0);
  // Spans caught in a cycle of parents have no root: shown at the top level rather than lost.
  const rest = spans.filter((span) => !placed.has(span)).sort(bySpanStart);
  for (const span of rest) place(span, 0);
  return { rows, startNano: start, durationNano: duration };
}

export interface Tick {
  /** From the trace's start. */
  atNano: bigint;
  /** Where it falls, from 0 to 1 of the trace's duration. */
  fraction: number;
}

/**
 * The time axis of a waterfall: ticks from 0 at a round step (1, 2 or 5 times a power of ten
 * nanoseconds), at most `most` steps in all, up to the trace's duration.
 */
export function axisTicks(durationNano: bigint, most = 5): Tick[] {
  if (durationNano <= 0n) return [{ atNano: 0n, fraction: 0 }];
  const wanted = (durationNano + BigInt(most) - 1n) / BigInt(most);
  let step = 0n;
  for (let power = 1n; step === 0n; power *= 10n) {
    for (const m of [1n, 2n, 5n]) {
      if (m * power >= wanted) {
        step = m * power;
        break;
      }
    }
  }
  const ticks: Tick[] = [];
  for (let at = 0n; at <= durationNano; at += step) ticks.push({ atNano: at, fraction: Number(at) / Number(durationNano) });
  return ticks;
}
