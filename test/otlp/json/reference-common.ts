// What the JSON.parse-based OTLP JSON decoders (the tests' references, reference-*.ts) shared,
// from src/otlp/json/common.ts, which the byte readers replaced. The same values the protobuf
// decoders produce. Field names are accepted in lowerCamelCase and snake_case, mixed freely; ids are hex, bytes are
// base64, 64-bit integers are strings or numbers, enums are integers.
import { deeper, newAttributes, type AnyValue, type Attributes, type MutableAttributes } from '../../../src/model/anyvalue.js';
import type { Resource, Scope } from '../../../src/model/resource.js';
import { normalizeHex } from '../../../src/otlp/hex.js';
import { DecodeAbort, type RecordBudget } from '../../../src/otlp/result.js';

import { ShapeError } from '../../../src/otlp/json/reader.js';
import { textDouble } from '../../../src/otlp/json/values.js';

export { ShapeError };

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value under the camelCase name, else under the snake_case one. */
export function field(o: JsonObject, camel: string, snake: string): unknown {
  const value = o[camel];
  return value === undefined || value === null ? o[snake] : value;
}

export function str(value: unknown, what: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new ShapeError(`${what} is not a string`);
  return value;
}

const UINT = /^\d+$/;
const INT = /^-?\d+$/;

/** The 32-bit fields (enums, int32, uint32, fixed32): anything outside what 32 bits hold is not one. */
export function int(value: unknown, what: string): number {
  if (value === undefined || value === null) return 0;
  let n: number | undefined;
  if (typeof value === 'number' && Number.isInteger(value)) n = value;
  else if (typeof value === 'string' && INT.test(value)) n = Number(value);
  if (n === undefined || n < -(2 ** 31) || n > 2 ** 32 - 1) throw new ShapeError(`${what} is not a 32-bit integer`);
  return n;
}

const UINT64_MAX = 2n ** 64n - 1n;

/** fixed64 times: a decimal string (as OTLP JSON writes them) or a number, within what fixed64 can hold. */
export function uint64(value: unknown, what: string): bigint {
  if (value === undefined || value === null) return 0n;
  let n: bigint | undefined;
  if (typeof value === 'string' && UINT.test(value)) n = BigInt(value);
  else if (typeof value === 'number' && Number.isInteger(value) && value >= 0) n = BigInt(value);
  if (n === undefined || n > UINT64_MAX) throw new ShapeError(`${what} is not an unsigned 64-bit integer`);
  return n;
}

export function int64(value: unknown, what: string): bigint {
  let n: bigint | undefined;
  if (typeof value === 'string' && INT.test(value)) n = BigInt(value);
  else if (typeof value === 'number' && Number.isInteger(value)) n = BigInt(value);
  if (n === undefined || n !== BigInt.asIntN(64, n)) throw new ShapeError(`${what} is not a 64-bit integer`);
  return n;
}

/** Counts are fixed64 on the wire but never reach 2^53 in practice: kept as numbers, as the protobuf decoder does. */
export function count(value: unknown, what: string): number {
  return Number(uint64(value, what));
}

export function double(value: unknown, what: string): number {
  if (typeof value === 'number') return value;
  const n = typeof value === 'string' ? textDouble(value) : undefined;
  if (n !== undefined) return n;
  throw new ShapeError(`${what} is not a number`);
}

export function optionalDouble(value: unknown, what: string): number | undefined {
  return value === undefined || value === null ? undefined : double(value, what);
}

export function id(value: unknown, what: string): string {
  const text = str(value, what);
  const hex = normalizeHex(text);
  if (hex === undefined) throw new ShapeError(`${what} is not hex`);
  return hex;
}

export function list(value: unknown, what: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ShapeError(`${what} is not a list`);
  return value;
}

/** How deep anyValue() is in lists and maps (decoding is synchronous: one value at a time). */
const depth = { now: 0 };
const tooDeep = (message: string): Error => new ShapeError(message);

export function anyValue(value: unknown): AnyValue {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) throw new ShapeError('value is not an AnyValue object');
  let v: unknown;
  if ((v = field(value, 'stringValue', 'string_value')) !== undefined && v !== null) return str(v, 'stringValue');
  if ((v = field(value, 'boolValue', 'bool_value')) !== undefined && v !== null) {
    if (typeof v !== 'boolean') throw new ShapeError('boolValue is not a boolean');
    return v;
  }
  if ((v = field(value, 'intValue', 'int_value')) !== undefined && v !== null) return int64(v, 'intValue');
  if ((v = field(value, 'doubleValue', 'double_value')) !== undefined && v !== null) return double(v, 'doubleValue');
  if ((v = field(value, 'arrayValue', 'array_value')) !== undefined && v !== null) {
    if (!isObject(v)) throw new ShapeError('arrayValue is not an object');
    const items = v['values'];
    return deeper(depth, tooDeep, () => list(items, 'arrayValue.values').map(anyValue));
  }
  if ((v = field(value, 'kvlistValue', 'kvlist_value')) !== undefined && v !== null) {
    if (!isObject(v)) throw new ShapeError('kvlistValue is not an object');
    const entries = v['values'];
    return deeper(depth, tooDeep, () => attributes(entries));
  }
  if ((v = field(value, 'bytesValue', 'bytes_value')) !== undefined && v !== null) {
    return new Uint8Array(Buffer.from(str(v, 'bytesValue'), 'base64'));
  }
  return null;
}

export function attributes(value: unknown, into: MutableAttributes = newAttributes()): Attributes {
  for (const kv of list(value, 'attributes')) {
    if (!isObject(kv)) throw new ShapeError('attribute is not a {key, value} object');
    into[str(kv['key'], 'attribute key')] = anyValue(kv['value']);
  }
  return into;
}

function dropped(o: JsonObject): number {
  return int(field(o, 'droppedAttributesCount', 'dropped_attributes_count'), 'droppedAttributesCount');
}

export function resource(value: unknown, schemaUrl: string): Resource {
  const o = isObject(value) ? value : {};
  return { attributes: attributes(o['attributes']), droppedAttributesCount: dropped(o), schemaUrl };
}

export function scope(value: unknown, schemaUrl: string): Scope {
  const o = isObject(value) ? value : {};
  return {
    name: str(o['name'], 'scope.name'),
    version: str(o['version'], 'scope.version'),
    attributes: attributes(o['attributes']),
    droppedAttributesCount: dropped(o),
    schemaUrl,
  };
}

export interface ExportShape {
  /** e.g. ['resourceLogs', 'resource_logs'] */
  resources: readonly [string, string];
  scopes: readonly [string, string];
  records: readonly [string, string];
}

/**
 * Parses the body and walks resources → scopes → records. A record that throws is skipped and
 * counted; a resource or scope whose header is broken is skipped with all its records counted;
 * an entry that is not even an object counts as one. A body that is not JSON, or not an export
 * object, is unreadable as a whole.
 */
export function walkJsonExport(
  body: Buffer,
  shape: ExportShape,
  out: { skipped: number; unreadable?: string },
  /** Counts each record; none for metrics, whose data points (not metrics) are the records. */
  budget: RecordBudget | undefined,
  record: (value: unknown, resource: Resource, scope: Scope) => void,
): void {
  let root: unknown;
  try {
    const text = body.toString('utf8');
    root = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    out.skipped++;
    out.unreadable = `not JSON: ${(error as Error).message}`;
    return;
  }
  if (!isObject(root)) {
    out.skipped++;
    out.unreadable = 'the JSON body is not an export object';
    return;
  }
  const resources = field(root, ...shape.resources);
  if (resources !== undefined && resources !== null && !Array.isArray(resources)) {
    out.skipped++;
    out.unreadable = `${shape.resources[0]} is not a list`;
    return;
  }
  for (const entry of resources ?? []) {
    if (!isObject(entry)) {
      out.skipped++;
      continue;
    }
    const scopes = field(entry, ...shape.scopes);
    let res: Resource;
    try {
      res = resource(entry['resource'], str(field(entry, 'schemaUrl', 'schema_url'), 'schemaUrl'));
    } catch {
      out.skipped += recordsIn(scopes, shape);
      continue;
    }
    if (scopes !== undefined && scopes !== null && !Array.isArray(scopes)) {
      out.skipped++;
      continue;
    }
    for (const scopeEntry of scopes ?? []) {
      if (!isObject(scopeEntry)) {
        out.skipped++;
        continue;
      }
      const records = field(scopeEntry, ...shape.records);
      let sc: Scope;
      try {
        sc = scope(scopeEntry['scope'], str(field(scopeEntry, 'schemaUrl', 'schema_url'), 'schemaUrl'));
      } catch {
        out.skipped += Array.isArray(records) ? records.length : 1;
        continue;
      }
      if (records !== undefined && records !== null && !Array.isArray(records)) {
        out.skipped++;
        continue;
      }
      for (const value of records ?? []) {
        budget?.count();
        try {
          record(value, res, sc);
        } catch (error) {
          if (error instanceof DecodeAbort) throw error;
          out.skipped++;
        }
      }
    }
  }
}

/** The records under a resource's scopes, for a resource skipped whole: as the protobuf decoder counts them. */
function recordsIn(scopes: unknown, shape: ExportShape): number {
  if (!Array.isArray(scopes)) return scopes === undefined || scopes === null ? 0 : 1;
  let count = 0;
  for (const entry of scopes) {
    const records = isObject(entry) ? field(entry, ...shape.records) : undefined;
    count += Array.isArray(records) ? records.length : 1;
  }
  return count;
}
