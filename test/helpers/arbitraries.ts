// fast-check arbitraries for valid OTLP JSON exports of every signal, every AnyValue kind,
// camelCase and snake_case names mixed, for property tests of the decoders.
import fc from 'fast-check';

const hex = (bytes: number) => fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('hex'));
const nonZeroHex = (bytes: number) => hex(bytes).filter((h) => /[^0]/.test(h));
const time = fc.bigInt({ min: 1n, max: 2n ** 63n }).map(String);
/** Either spelling of a field name, decided per use. */
const name = (camel: string, snake: string) => fc.constantFrom(camel, snake);

const scalar = fc.oneof(
  fc.string().map((stringValue) => ({ stringValue })),
  fc.boolean().map((boolValue) => ({ boolValue })),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((v) => ({ intValue: v.toString() })),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)).map((doubleValue) => ({ doubleValue })),
  fc.uint8Array({ maxLength: 16 }).map((b) => ({ bytesValue: Buffer.from(b).toString('base64') })),
  fc.constant({}),
);

const anyValue: fc.Arbitrary<object> = fc.letrec<{ value: object }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }).map((values) => ({ arrayValue: { values } })),
    fc.array(fc.record({ key: fc.string({ maxLength: 8 }), value: tie('value') }), { maxLength: 3 }).map((values) => ({ kvlistValue: { values } })),
  ),
})).value;

const attributes = fc.uniqueArray(fc.record({ key: fc.string({ maxLength: 12 }), value: anyValue }), { maxLength: 4, selector: (kv) => kv.key });

const resource = fc.record({ attributes, droppedAttributesCount: fc.nat(5) }, { requiredKeys: [] });
const scope = fc.record({ name: fc.string({ maxLength: 10 }), version: fc.string({ maxLength: 5 }), attributes }, { requiredKeys: [] });

function container(resourcesKey: [string, string], scopesKey: [string, string], recordsKey: [string, string], record: fc.Arbitrary<object>) {
  const scopeEntry = fc.tuple(name(...recordsKey), fc.array(record, { maxLength: 4 }), scope).map(([key, records, s]) => ({ scope: s, [key]: records }));
  const resourceEntry = fc.tuple(name(...scopesKey), fc.array(scopeEntry, { maxLength: 2 }), resource).map(([key, scopes, r]) => ({ resource: r, [key]: scopes }));
  return fc.tuple(name(...resourcesKey), fc.array(resourceEntry, { maxLength: 2 })).map(([key, resources]) => ({ [key]: resources }));
}

const logRecord = fc
  .tuple(name('timeUnixNano', 'time_unix_nano'), name('severityNumber', 'severity_number'), name('traceId', 'trace_id'))
  .chain(([timeKey, severityKey, traceKey]) =>
    fc.record(
      {
        [timeKey]: time,
        [severityKey]: fc.integer({ min: 0, max: 24 }),
        severityText: fc.string({ maxLength: 6 }),
        body: anyValue,
        attributes,
        [traceKey]: hex(16),
        spanId: hex(8),
        flags: fc.nat(255),
        eventName: fc.string({ maxLength: 6 }),
      },
      { requiredKeys: [] },
    ),
  );

const span = fc.record(
  {
    traceId: nonZeroHex(16),
    spanId: nonZeroHex(8),
    parentSpanId: fc.oneof(fc.constant(''), nonZeroHex(8)),
    name: fc.string({ maxLength: 10 }),
    kind: fc.integer({ min: 0, max: 5 }),
    startTimeUnixNano: time,
    endTimeUnixNano: time,
    attributes,
    events: fc.array(fc.record({ timeUnixNano: time, name: fc.string({ maxLength: 5 }), attributes }), { maxLength: 2 }),
    links: fc.array(fc.record({ traceId: nonZeroHex(16), spanId: nonZeroHex(8), attributes }), { maxLength: 2 }),
    status: fc.record({ code: fc.integer({ min: 0, max: 2 }), message: fc.string({ maxLength: 5 }) }),
  },
  { requiredKeys: ['traceId', 'spanId'] },
);

const finite = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0));
const numberPoint = fc.record({ timeUnixNano: time, startTimeUnixNano: time, attributes, asDouble: finite }, { requiredKeys: ['timeUnixNano', 'asDouble'] });
const intPoint = fc.record({ timeUnixNano: time, asInt: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String) });
const histogramPoint = fc.array(finite, { maxLength: 4 }).chain((bounds) =>
  fc.record({
    timeUnixNano: time,
    count: fc.nat().map(String),
    sum: finite,
    explicitBounds: fc.constant(bounds),
    bucketCounts: fc.array(fc.nat(1000).map(String), { minLength: bounds.length + 1, maxLength: bounds.length + 1 }),
    attributes,
  }),
);

const metric = fc.oneof(
  fc.record({ name: fc.string({ maxLength: 8 }), unit: fc.string({ maxLength: 3 }), gauge: fc.record({ dataPoints: fc.array(fc.oneof(numberPoint, intPoint), { maxLength: 3 }) }) }),
  fc.record({
    name: fc.string({ maxLength: 8 }),
    sum: fc.record({ aggregationTemporality: fc.integer({ min: 0, max: 2 }), isMonotonic: fc.boolean(), dataPoints: fc.array(numberPoint, { maxLength: 3 }) }),
  }),
  fc.record({ name: fc.string({ maxLength: 8 }), histogram: fc.record({ aggregationTemporality: fc.integer({ min: 0, max: 2 }), dataPoints: fc.array(histogramPoint, { maxLength: 3 }) }) }),
);

export const exports = {
  logs: container(['resourceLogs', 'resource_logs'], ['scopeLogs', 'scope_logs'], ['logRecords', 'log_records'], logRecord),
  traces: container(['resourceSpans', 'resource_spans'], ['scopeSpans', 'scope_spans'], ['spans', 'spans'], span),
  metrics: container(['resourceMetrics', 'resource_metrics'], ['scopeMetrics', 'scope_metrics'], ['metrics', 'metrics'], metric),
};
