// The decoders' golden files: a fixed OTLP JSON export and its protobuf twin give exactly the same rows.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Signal } from '../../src/model/signal.js';
import { decodeOtlp } from '../../src/otlp/decode.js';
import { ROOT } from '../helpers/cli.js';
import { expectGolden, UPDATING_GOLDEN } from '../helpers/golden.js';
import { canonicalRows, otlpJsonToProtobuf } from '../helpers/otlp.js';

const cases: [Signal, number, number][] = [
  ['logs', 6, 0],
  ['traces', 2, 3],
  ['metrics', 7, 5],
];

describe('OTLP decoders against golden files', () => {
  it.each(cases)('%s: JSON and protobuf give the same %d rows and skip the same %d records', (signal, rows, skipped) => {
    const json = readFileSync(`${ROOT}/testdata/otlp/${signal}.json`);
    const fromJson = decodeOtlp(signal, 'json', json);
    const fromProtobuf = decodeOtlp(signal, 'protobuf', otlpJsonToProtobuf(signal, JSON.parse(json.toString('utf8'))));

    expect(fromJson.rows).toHaveLength(rows);
    expect(fromJson.skipped).toBe(skipped);
    expect(fromJson.unreadable).toBeUndefined();
    expectGolden(`otlp/${signal}.rows.json`, canonicalRows(fromJson.rows));

    expect(fromProtobuf.skipped).toBe(skipped);
    expect(fromProtobuf.unreadable).toBeUndefined();
    expect(canonicalRows(fromProtobuf.rows)).toBe(canonicalRows(fromJson.rows));
    expect(fromProtobuf.rows).toEqual(fromJson.rows);
  });

  it.skipIf(UPDATING_GOLDEN)('fail on a golden file that is missing, and do not write it', () => {
    expect(() => expectGolden('otlp/no-such.rows.json', '[]')).toThrow('golden file testdata/otlp/no-such.rows.json is missing; write it with UPDATE_GOLDEN=1');
    expect(existsSync(`${ROOT}/testdata/otlp/no-such.rows.json`)).toBe(false);
  });
});
