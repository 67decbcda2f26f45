// Arbitrary OTLP JSON trace exports, in the canonical form of variants.ts, for its VariantWriter.
import fc from 'fast-check';
import { attributes, id, resource, schemaUrl, scope, uint64, wellFormed, type Canonical } from './variants.js';

/** Mostly the enum's own values, sometimes any int32 (an enum may gain values; both readers keep the number). */
const enumValue = (max: number) => fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 0, max }) }, { weight: 1, arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) });
/** A span's own ids are required: one that is absent, of the wrong length or all zeros skips the span, in both readers. */
const spanIds = (bytes: number) => fc.oneof({ weight: 12, arbitrary: id(bytes) }, { weight: 1, arbitrary: fc.constant('00'.repeat(bytes)) });

const event = fc.record({ timeUnixNano: uint64, name: wellFormed(8), attributes, droppedAttributesCount: fc.nat(1000) }, { requiredKeys: [] });
const link = fc.record(
  { traceId: id(16), spanId: id(8), traceState: wellFormed(8), attributes, droppedAttributesCount: fc.nat(1000), flags: fc.nat(2 ** 32 - 1) },
  { requiredKeys: [] },
);
const status = fc.record({ code: enumValue(2), message: wellFormed(8) }, { requiredKeys: [] });

const span = fc.record(
  {
    traceId: spanIds(16),
    spanId: spanIds(8),
    traceState: wellFormed(8),
    parentSpanId: id(8),
    flags: fc.nat(2 ** 32 - 1),
    name: wellFormed(10),
    kind: enumValue(5),
    startTimeUnixNano: uint64,
    endTimeUnixNano: uint64,
    attributes,
    droppedAttributesCount: fc.nat(1000),
    events: fc.array(event, { maxLength: 3 }),
    droppedEventsCount: fc.nat(1000),
    links: fc.array(link, { maxLength: 2 }),
    droppedLinksCount: fc.nat(1000),
    status,
  },
  { requiredKeys: ['traceId', 'spanId'] },
);

const scopeSpans = fc.record({ scope, schemaUrl, spans: fc.array(span, { maxLength: 4 }) }, { requiredKeys: [] });
const resourceSpans = fc.record({ resource, schemaUrl, scopeSpans: fc.array(scopeSpans, { maxLength: 3 }) }, { requiredKeys: [] });
export const tracesExport: fc.Arbitrary<Canonical> = fc.record({ resourceSpans: fc.array(resourceSpans, { maxLength: 3 }) }, { requiredKeys: [] });
