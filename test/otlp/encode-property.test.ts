// Property tests of the encoders over arbitrary rows: decoding what they write gives the rows back
// (in the order the OTLP nesting puts them, with the same sharing), for both encodings; protobufjs
// reads the protobuf bytes as what the JSON encoder writes; and grouping by value undoes clones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAttributes, newAttributes, type AnyValue, type Attributes } from '../../src/model/anyvalue.js';
import type { RowOf } from '../../src/model/batch.js';
import type { DataPointRow } from '../../src/model/metrics.js';
import { SIGNALS, type Signal } from '../../src/model/signal.js';
import { decodeOtlp } from '../../src/otlp/decode.js';
import { encodeOtlp } from '../../src/otlp/encode.js';
import { canonicalRows } from '../helpers/otlp.js';
import { protobufjsView } from '../helpers/protobufjs-view.js';
import { rows as rowArbitraries } from '../helpers/row-arbitraries.js';

const SEED = 20261123;
const ENCODINGS = ['json', 'protobuf'] as const;

/**
 * The rows in the order OTLP's nesting gives them: partitioned by the first key's value in order
 * of first appearance, each part by the next key. Written apart from groupRows on purpose.
 */
function nested<R>(rows: readonly R[], keys: readonly ((row: R) => unknown)[]): R[] {
  const [first, ...rest] = keys;
  if (first === undefined) return [...rows];
  return [...new Set(rows.map(first))].flatMap((value) => nested(rows.filter((row) => first(row) === value), rest));
}

function keysOf(signal: Signal): ((row: RowOf<Signal>) => unknown)[] {
  const keys: ((row: RowOf<Signal>) => unknown)[] = [(row) => row.resource, (row) => row.scope];
  if (signal === 'metrics') keys.push((row) => (row as DataPointRow).metric);
  return keys;
}

function cloneValue(value: AnyValue): AnyValue {
  if (value instanceof Uint8Array) return value.slice();
  if (typeof value === 'object' && value !== null && isAttributes(value)) return cloneAttributes(value);
  if (Array.isArray(value)) return (value as readonly AnyValue[]).map(cloneValue);
  return value;
}

function cloneAttributes(attributes: Attributes): Attributes {
  const out = newAttributes();
  for (const key of Object.keys(attributes)) out[key] = cloneValue(attributes[key] as AnyValue);
  return out;
}

/** The row with its resource, scope (and metric) replaced by fresh objects of equal value. */
function withClones<R extends RowOf<Signal>>(row: R): R {
  const copy = {
    ...row,
    resource: { ...row.resource, attributes: cloneAttributes(row.resource.attributes) },
    scope: { ...row.scope, attributes: cloneAttributes(row.scope.attributes) },
  };
  if ('metric' in row) return { ...copy, metric: { ...row.metric, metadata: cloneAttributes(row.metric.metadata) } } as R;
  return copy as R;
}

describe.each(SIGNALS)('%s encoders over arbitrary rows', (signal) => {
  const arbitrary = rowArbitraries[signal] as fc.Arbitrary<RowOf<Signal>[]>;

  it.each(ENCODINGS)('%s: decoding the encoded rows gives them back, nested, every object shared as before', (encoding) => {
    fc.assert(
      fc.property(arbitrary, (rows) => {
        const decoded = decodeOtlp(signal, encoding, encodeOtlp(signal, encoding, rows));
        const expected = nested(rows, keysOf(signal));
        expect([decoded.rows.length, decoded.skipped, decoded.unreadable]).toEqual([rows.length, 0, undefined]);
        expect(decoded.rows).toEqual(expected);
        expect(canonicalRows(decoded.rows)).toBe(canonicalRows(expected));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('protobufjs reads the protobuf bytes as exactly the JSON encoding', () => {
    fc.assert(
      fc.property(arbitrary, (rows) => {
        const json: unknown = JSON.parse(encodeOtlp(signal, 'json', rows).toString('utf8'));
        expect(protobufjsView(signal, encodeOtlp(signal, 'protobuf', rows))).toEqual(json);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it.each(ENCODINGS)('%s: grouped by value, rows whose shared objects were cloned encode to the same bytes as the originals by identity', (encoding) => {
    fc.assert(
      fc.property(
        arbitrary.chain((rows) => fc.tuple(fc.constant(rows), fc.array(fc.boolean(), { minLength: rows.length, maxLength: rows.length }))),
        ([rows, clone]) => {
          // Distinct objects of equal value in the generated rows would merge too: compare with their merge.
          const original = encodeOtlp(signal, encoding, rows, { group: 'value' });
          const cloned = rows.map((row, i) => (clone[i] === true ? withClones(row) : row));
          expect(encodeOtlp(signal, encoding, cloned, { group: 'value' }).equals(original)).toBe(true);
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
  });
});
