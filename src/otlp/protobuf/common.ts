// OTLP common messages from wire bytes: AnyValue, KeyValue lists, Resource, InstrumentationScope.
import type { Building } from '../../model/building.js';
import { errorMessage } from '../../errors.js';
import { deeper, newAttributes, type AnyValue, type MutableAttributes } from '../../model/anyvalue.js';
import type { Resource, Scope } from '../../model/resource.js';
import { DecodeAbort, emptyDecoded, type Decoded, type RecordBudget } from '../result.js';
import type { RowTypes } from '../../model/batch.js';
import { Reader, WIRE_I64, WIRE_LEN, WIRE_VARINT, WireError } from '../wire.js';

/** How deep anyValue() is in lists and maps (decoding is synchronous: one value at a time). */
const depth = { now: 0 };
const tooDeep = (message: string): Error => new WireError(message);

export function anyValue(r: Reader, end: number): AnyValue {
  let value: AnyValue = null;
  while (r.more(end)) {
    const tag = r.varint();
    const wire = tag & 7;
    switch (tag >>> 3) {
      case 1:
        if (wire !== WIRE_LEN) throw new WireError('AnyValue.string_value: wrong wire type');
        value = r.string();
        break;
      case 2:
        if (wire !== WIRE_VARINT) throw new WireError('AnyValue.bool_value: wrong wire type');
        value = r.bool();
        break;
      case 3:
        if (wire !== WIRE_VARINT) throw new WireError('AnyValue.int_value: wrong wire type');
        value = r.varint64();
        break;
      case 4:
        if (wire !== WIRE_I64) throw new WireError('AnyValue.double_value: wrong wire type');
        value = r.double();
        break;
      case 5: {
        if (wire !== WIRE_LEN) throw new WireError('AnyValue.array_value: wrong wire type');
        const arrayEnd = r.delimited();
        value = deeper(depth, tooDeep, () => {
          const values: AnyValue[] = [];
          while (r.more(arrayEnd)) {
            const inner = r.varint();
            if (inner >>> 3 === 1 && (inner & 7) === WIRE_LEN) values.push(anyValue(r, r.delimited()));
            else r.skip(inner & 7);
          }
          return values;
        });
        break;
      }
      case 6: {
        if (wire !== WIRE_LEN) throw new WireError('AnyValue.kvlist_value: wrong wire type');
        const listEnd = r.delimited();
        value = deeper(depth, tooDeep, () => {
          const map = newAttributes();
          while (r.more(listEnd)) {
            const inner = r.varint();
            if (inner >>> 3 === 1 && (inner & 7) === WIRE_LEN) keyValue(r, r.delimited(), map);
            else r.skip(inner & 7);
          }
          return map;
        });
        break;
      }
      case 7:
        if (wire !== WIRE_LEN) throw new WireError('AnyValue.bytes_value: wrong wire type');
        value = r.bytes();
        break;
      default:
        r.skip(wire);
    }
  }
  return value;
}

/** Decodes one KeyValue into `into`; a later duplicate key wins. */
export function keyValue(r: Reader, end: number, into: MutableAttributes): void {
  let key = '';
  let value: AnyValue = null;
  while (r.more(end)) {
    const tag = r.varint();
    const field = tag >>> 3;
    if (field === 1 && (tag & 7) === WIRE_LEN) key = r.key();
    else if (field === 2 && (tag & 7) === WIRE_LEN) value = anyValue(r, r.delimited());
    else r.skip(tag & 7);
  }
  into[key] = value;
}

export function resource(r: Reader, end: number, schemaUrl: string): Resource {
  const attributes = newAttributes();
  let dropped = 0;
  while (r.more(end)) {
    const tag = r.varint();
    const field = tag >>> 3;
    if (field === 1 && (tag & 7) === WIRE_LEN) keyValue(r, r.delimited(), attributes);
    else if (field === 2 && (tag & 7) === WIRE_VARINT) dropped = r.varint();
    else r.skip(tag & 7);
  }
  return { attributes, droppedAttributesCount: dropped, schemaUrl };
}

export function scope(r: Reader, end: number, schemaUrl: string): Scope {
  const out: Building<Scope> = { name: '', version: '', attributes: newAttributes(), droppedAttributesCount: 0, schemaUrl };
  while (r.more(end)) {
    const tag = r.varint();
    const wire = tag & 7;
    switch (tag >>> 3) {
      case 1:
        if (wire === WIRE_LEN) out.name = r.string();
        else r.skip(wire);
        break;
      case 2:
        if (wire === WIRE_LEN) out.version = r.string();
        else r.skip(wire);
        break;
      case 3:
        if (wire === WIRE_LEN) keyValue(r, r.delimited(), out.attributes);
        else r.skip(wire);
        break;
      case 4:
        if (wire === WIRE_VARINT) out.droppedAttributesCount = r.varint();
        else r.skip(wire);
        break;
      default:
        r.skip(wire);
    }
  }
  return out;
}

function emptyResource(schemaUrl: string): Resource {
  return { attributes: newAttributes(), droppedAttributesCount: 0, schemaUrl };
}

function emptyScope(schemaUrl: string): Scope {
  return { name: '', version: '', attributes: newAttributes(), droppedAttributesCount: 0, schemaUrl };
}

/** Throws unless the field arrived with the wire type its definition gives it. */
export function expect(tag: number, wire: number): void {
  if ((tag & 7) !== wire) throw new WireError(`field ${tag >>> 3}: wire type ${tag & 7}, expected ${wire}`);
}

type HeaderReader<H> = (r: Reader, end: number, schemaUrl: string) => H;

/** The records a container holds: its field-2 children, `levels` deep; at least 1 when it cannot tell. */
function recordsIn(r: Reader, start: number, end: number, levels: number): number {
  let count = 0;
  r.pos = start;
  try {
    while (r.more(end)) {
      const tag = r.varint();
      if (tag >>> 3 !== 2 || (tag & 7) !== WIRE_LEN) {
        r.skip(tag & 7);
        continue;
      }
      const childEnd = r.delimited();
      count += levels === 1 ? 1 : recordsIn(r, r.pos, childEnd, levels - 1);
      r.pos = childEnd;
    }
  } catch {
    return Math.max(count, 1);
  }
  return count;
}

interface Skips {
  skipped: number;
  inexact?: boolean;
}

/**
 * The container messages (ResourceX, ScopeX) hold a header (resource or scope, field 1; schema_url,
 * field 3) and children (field 2), in any order on the wire. Reads the header first, then calls
 * `child` for each child with the reader at its start, so every child sees the complete header.
 * A container whose header cannot be read is skipped whole, its records counted (`levels` deep).
 */
function withHeader<H>(
  r: Reader,
  end: number,
  levels: number,
  out: Skips,
  readHeader: HeaderReader<H>,
  emptyHeader: (schemaUrl: string) => H,
  child: (header: H, childEnd: number) => void,
): void {
  const start = r.pos;
  let header: H;
  try {
    let headerStart = -1;
    let headerEnd = -1;
    let schemaUrl = '';
    while (r.more(end)) {
      const tag = r.varint();
      const field = tag >>> 3;
      if (field === 1 && (tag & 7) === WIRE_LEN) {
        headerEnd = r.delimited();
        headerStart = r.pos;
        r.pos = headerEnd;
      } else if (field === 3 && (tag & 7) === WIRE_LEN) {
        schemaUrl = r.string();
      } else {
        r.skip(tag & 7);
      }
    }
    if (headerStart === -1) {
      header = emptyHeader(schemaUrl);
    } else {
      r.pos = headerStart;
      header = readHeader(r, headerEnd, schemaUrl);
      if (r.pos !== headerEnd) throw new WireError('a field runs past the end of its message');
    }
  } catch {
    out.skipped += recordsIn(r, start, end, levels);
    out.inexact = true;
    return;
  }
  r.pos = start;
  let seen = 0;
  try {
    while (r.more(end)) {
      const tag = r.varint();
      if (tag >>> 3 === 2 && (tag & 7) === WIRE_LEN) {
        const childEnd = r.delimited();
        child(header, childEnd);
        seen++;
        r.pos = childEnd;
      } else {
        r.skip(tag & 7);
      }
    }
  } catch (error) {
    if (error instanceof DecodeAbort) throw error;
    // The container's own framing broke after `seen` children: what follows cannot be counted.
    out.skipped += Math.max(recordsIn(r, start, end, levels) - seen, 1);
  }
}

/**
 * Walks an Export*ServiceRequest: field 1 resources, each with scopes, each with records.
 * `record` is called with the reader at a record's start; a record that throws is counted as
 * skipped and the walk goes on after it; so does a resource or scope whose header is broken
 * (with all its records counted). A body whose top-level framing breaks stops the walk: what
 * was read is kept and the rest counts as one unreadable record.
 */
export function walkExport(
  buf: Buffer,
  out: { skipped: number; unreadable?: string; inexact?: boolean },
  record: (r: Reader, end: number, resource: Resource, scope: Scope) => void,
  watch: boolean,
): void {
  const r = new Reader(buf, 0, buf.length);
  r.watch = watch;
  try {
    while (!r.done) {
      const tag = r.varint();
      if (tag >>> 3 !== 1 || (tag & 7) !== WIRE_LEN) {
        r.skip(tag & 7);
        continue;
      }
      const end = r.delimited();
      withHeader(r, end, 2, out, resource, emptyResource, (res, resourceEnd) => {
        withHeader(r, resourceEnd, 1, out, scope, emptyScope, (sc, recordEnd) => {
          try {
            record(r, recordEnd, res, sc);
          } catch (error) {
            if (error instanceof DecodeAbort) throw error;
            out.skipped++;
          }
        });
      });
      r.pos = end;
    }
  } catch (error) {
    if (error instanceof DecodeAbort) throw error;
    out.skipped++;
    out.unreadable = errorMessage(error);
  }
  if (r.replaced) out.inexact = true;
}

/**
 * Decodes an export whose records each become one row (log records, spans): every record is
 * counted against `budget`, read by `read`, and kept unless `problem` names a reason to skip it.
 * `watch`: tell whether the rows are not exactly the body (Decoded.inexact).
 */
export function decodeRecords<S extends 'logs' | 'traces'>(
  buf: Buffer,
  budget: RecordBudget,
  read: (r: Reader, end: number, resource: Resource, scope: Scope) => RowTypes[S],
  /** Why a row cannot be stored; none for rows every one of which can be (log records). */
  problem: ((row: RowTypes[S]) => string | undefined) | undefined,
  watch: boolean,
): Decoded<S> {
  const out = emptyDecoded<S>();
  walkExport(
    buf,
    out,
    (r, end, resource, scope) => {
      budget.count();
      const row = read(r, end, resource, scope);
      if (problem === undefined || problem(row) === undefined) out.rows.push(row);
      else out.skipped++;
    },
    watch,
  );
  return out;
}
