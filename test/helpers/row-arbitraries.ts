// fast-check arbitraries of rows themselves (not of OTLP exports), for property tests of the
// encoders: every AnyValue kind nested, 64-bit and double extremes, all five point kinds with their
// optional fields present and absent, spans with events and links, and rows that share their
// resources, scopes and metrics. Every row is one the decoders keep (valid ids, a point time).
import fc from 'fast-check';
import { newAttributes, type AnyValue, type Attributes } from '../../src/model/anyvalue.js';
import type { RowOf } from '../../src/model/batch.js';
import type { LogRow } from '../../src/model/logs.js';
import type { DataPointRow, Exemplar, ExponentialBuckets, Metric, MetricType } from '../../src/model/metrics.js';
import type { Resource, Scope } from '../../src/model/resource.js';
import type { Signal } from '../../src/model/signal.js';
import type { SpanEvent, SpanLink, SpanRow } from '../../src/model/traces.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * Any Unicode text (no lone surrogates: UTF-8, so protobuf, cannot carry them), mostly short, at
 * times long enough to need a length of two bytes.
 */
const text = fc.oneof(
  { arbitrary: fc.string({ maxLength: 8 }), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 8 }), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', minLength: 40, maxLength: 200 }), weight: 1 },
);

/** Every double, NaN, the infinities and -0 included, with the extremes weighted in. */
const anyDouble = fc.oneof(fc.double(), fc.constantFrom(-0, 0, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53, 1e21, 0.1));
const finiteDouble = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(-0, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE));
const int64 = fc.oneof(fc.bigInt({ min: INT64_MIN, max: INT64_MAX }), fc.constantFrom(INT64_MIN, INT64_MAX, 0n, -1n, 2n ** 31n, 2n ** 53n + 1n));
const uint64 = fc.oneof(fc.bigInt({ min: 0n, max: UINT64_MAX }), fc.constantFrom(0n, 1n, UINT64_MAX, 2n ** 63n));
const uint32 = fc.oneof(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.constantFrom(0, 2 ** 32 - 1));
const int32 = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom(0, -1, -(2 ** 31), 2 ** 31 - 1));
/** Counts are kept as numbers below 2^53 (the decoders skip a point with a larger one). */
const count = fc.oneof(fc.maxSafeNat(), fc.constantFrom(0, Number.MAX_SAFE_INTEGER));
const hex = (bytes: number): fc.Arbitrary<string> => fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('hex'));
const nonZeroHex = (bytes: number): fc.Arbitrary<string> => hex(bytes).filter((h) => /[^0]/.test(h));
const optionalHex = (bytes: number): fc.Arbitrary<string> => fc.oneof(fc.constant(''), hex(bytes));

function attributesOf(entries: [string, AnyValue][]): Attributes {
  const map = newAttributes();
  for (const [key, value] of entries) map[key] = value;
  return map;
}

const key = fc.oneof(text, fc.constantFrom('__proto__', 'constructor', '', '0', 'service.name'));

export const anyValue: fc.Arbitrary<AnyValue> = fc.letrec<{ value: AnyValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.boolean(),
    anyDouble,
    int64,
    fc.uint8Array({ maxLength: 12 }),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.uniqueArray(fc.tuple(key, tie('value')), { maxLength: 3, selector: ([k]) => k }).map(attributesOf),
  ),
})).value;

export const attributes: fc.Arbitrary<Attributes> = fc.uniqueArray(fc.tuple(key, anyValue), { maxLength: 4, selector: ([k]) => k }).map(attributesOf);

export const resource: fc.Arbitrary<Resource> = fc.record({ attributes, droppedAttributesCount: uint32, schemaUrl: text });
export const scope: fc.Arbitrary<Scope> = fc.record({ name: text, version: text, attributes, droppedAttributesCount: uint32, schemaUrl: text });

/** A log row's own fields; resource and scope are filled in by the caller. */
const logFields = fc.record({
  timeUnixNano: uint64,
  observedTimeUnixNano: uint64,
  severityNumber: int32,
  severityText: text,
  body: anyValue,
  attributes,
  droppedAttributesCount: uint32,
  flags: uint32,
  traceId: optionalHex(16),
  spanId: optionalHex(8),
  eventName: text,
});

const event: fc.Arbitrary<SpanEvent> = fc.record({ timeUnixNano: uint64, name: text, attributes, droppedAttributesCount: uint32 });
const link: fc.Arbitrary<SpanLink> = fc.record({
  traceId: optionalHex(16),
  spanId: optionalHex(8),
  traceState: text,
  attributes,
  droppedAttributesCount: uint32,
  flags: uint32,
});

const spanFields = fc.record({
  traceId: nonZeroHex(16),
  spanId: nonZeroHex(8),
  parentSpanId: optionalHex(8),
  traceState: text,
  flags: uint32,
  name: text,
  kind: int32,
  startTimeUnixNano: uint64,
  endTimeUnixNano: uint64,
  attributes,
  droppedAttributesCount: uint32,
  events: fc.array(event, { maxLength: 2 }),
  droppedEventsCount: uint32,
  links: fc.array(link, { maxLength: 2 }),
  droppedLinksCount: uint32,
  statusCode: int32,
  statusMessage: text,
});

const metricType = fc.constantFrom<MetricType>('gauge', 'sum', 'histogram', 'exponential_histogram', 'summary');

/** A metric whose aggregation settings are ones its type carries on the wire (a gauge has no temporality). */
export const metric: fc.Arbitrary<Metric> = fc
  .record({ name: text, description: text, unit: text, type: metricType, temporality: int32, isMonotonic: fc.boolean(), metadata: attributes })
  .map((m) => ({
    ...m,
    temporality: m.type === 'gauge' || m.type === 'summary' ? 0 : m.temporality,
    isMonotonic: m.type === 'sum' && m.isMonotonic,
  }));

const exemplar: fc.Arbitrary<Exemplar> = fc.record({
  timeUnixNano: uint64,
  value: fc.oneof(anyDouble, int64),
  filteredAttributes: attributes,
  traceId: optionalHex(16),
  spanId: optionalHex(8),
});

const pointBase = fc.record({
  startTimeUnixNano: uint64,
  timeUnixNano: uint64.filter((t) => t !== 0n),
  attributes,
  flags: uint32,
  exemplars: fc.array(exemplar, { maxLength: 2 }),
});

const optional = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined });
const buckets: fc.Arbitrary<ExponentialBuckets> = fc.record({ offset: int32, bucketCounts: fc.array(count, { maxLength: 4 }) });

/** A point's own fields for a metric of `type`; the caller adds resource, scope and metric. */
function pointFields(type: MetricType): fc.Arbitrary<Omit<DataPointRow, 'resource' | 'scope' | 'metric'>> {
  switch (type) {
    case 'gauge':
    case 'sum':
      return fc.record({ base: pointBase, value: fc.oneof(finiteDouble, int64) }).map(({ base, value }) => ({ ...base, kind: 'number' as const, value }));
    case 'histogram':
      // No buckets at all, or one more count than bounds.
      return fc
        .record({ base: pointBase, count, sum: optional(finiteDouble), min: optional(anyDouble), max: optional(anyDouble), bounds: fc.option(fc.array(anyDouble, { maxLength: 4 })) })
        .chain(({ bounds, ...rest }) =>
          fc.array(count, { minLength: bounds === null ? 0 : bounds.length + 1, maxLength: bounds === null ? 0 : bounds.length + 1 }).map((bucketCounts) => ({ ...rest, bucketCounts, explicitBounds: bounds ?? [] })),
        )
        .map(({ base, ...h }) => ({ ...base, kind: 'histogram' as const, ...h }));
    case 'exponential_histogram':
      return fc
        .record({
          base: pointBase,
          count,
          sum: optional(finiteDouble),
          min: optional(anyDouble),
          max: optional(anyDouble),
          scale: int32,
          zeroCount: count,
          zeroThreshold: finiteDouble,
          positive: buckets,
          negative: buckets,
        })
        .map(({ base, ...h }) => ({ ...base, kind: 'exponential_histogram' as const, ...h }));
    case 'summary':
      // A summary point has no exemplars on the wire.
      return fc
        .record({ base: pointBase, count, sum: finiteDouble, quantiles: fc.array(fc.record({ quantile: finiteDouble, value: finiteDouble }), { maxLength: 3 }) })
        .map(({ base, ...s }) => ({ ...base, exemplars: [], kind: 'summary' as const, ...s }));
  }
}

/**
 * Where each row goes: a few resources, each with its own scopes (and for metrics, each scope
 * with its own metrics), and rows that pick one path each, interleaved. A scope object serves one
 * resource only and a metric one scope only, as in decoded rows, so that sharing survives a round trip.
 */
interface Tree {
  resources: { resource: Resource; scopes: { scope: Scope; metrics: Metric[] }[] }[];
}

const tree: fc.Arbitrary<Tree> = fc.record({
  resources: fc.array(
    fc.record({ resource, scopes: fc.array(fc.record({ scope, metrics: fc.array(metric, { minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: 3 }) }),
    { minLength: 1, maxLength: 3 },
  ),
});

/** Picks a path in the tree per row: [resource, scope, metric] indices, reduced modulo each list's length. */
const paths = fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { maxLength: 12 });

function pick<T>(list: readonly T[], at: number): T {
  return list[at % list.length] as T;
}

export const rows: { [S in Signal]: fc.Arbitrary<RowOf<S>[]> } = {
  logs: fc.tuple(tree, paths).chain(([t, ps]) =>
    fc.tuple(...ps.map(() => logFields)).map((fields) =>
      fields.map((f, i) => {
        const [r, s] = ps[i] as [number, number, number];
        const res = pick(t.resources, r);
        return { resource: res.resource, scope: pick(res.scopes, s).scope, ...f } satisfies LogRow;
      }),
    ),
  ),
  traces: fc.tuple(tree, paths).chain(([t, ps]) =>
    fc.tuple(...ps.map(() => spanFields)).map((fields) =>
      fields.map((f, i) => {
        const [r, s] = ps[i] as [number, number, number];
        const res = pick(t.resources, r);
        return { resource: res.resource, scope: pick(res.scopes, s).scope, ...f } satisfies SpanRow;
      }),
    ),
  ),
  metrics: fc.tuple(tree, paths).chain(([t, ps]) => {
    const chosen = ps.map(([r, s, m]) => {
      const res = pick(t.resources, r);
      const sc = pick(res.scopes, s);
      return { resource: res.resource, scope: sc.scope, metric: pick(sc.metrics, m) };
    });
    return fc.tuple(...chosen.map((c) => pointFields(c.metric.type))).map((fields) => fields.map((f, i) => ({ ...(chosen[i] as (typeof chosen)[number]), ...f }) as DataPointRow));
  }),
};
