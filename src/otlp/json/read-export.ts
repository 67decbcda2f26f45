// The walk over an OTLP/JSON export read straight from the bytes (reader.ts): resources → scopes →
// records, each record handed to the signal's reader. Objects are read as read-common.ts says.
import type { Building } from '../../model/building.js';
import { newAttributes } from '../../model/anyvalue.js';
import type { Resource, Scope } from '../../model/resource.js';
import type { Signal } from '../../model/signal.js';
import { DecodeAbort, emptyDecoded, type Decoded, type RecordBudget } from '../result.js';
import { NameTable, UNKNOWN } from './names.js';
import { readResource, readScope, skipsRecord } from './read-common.js';
import { END, JsonReader, JsonSyntaxError, LBRACE, LBRACKET, N } from './reader.js';
import { text } from './values.js';

/**
 * Reads one record at the reader into rows of `out` (or counts it skipped), or throws what
 * skipsRecord() names. `budget`: for a reader whose records hold the counted ones (a metric's data points).
 */
export type RecordReader<S extends Signal> = (r: JsonReader, out: Decoded<S>, resource: Resource, scope: Scope, budget: RecordBudget) => void;

/** The member names of an export's three levels. */
export interface ExportShape {
  readonly root: NameTable;
  readonly resource: NameTable;
  readonly scope: NameTable;
  /** Whether the walk counts each record against the budget: not for metrics, whose data points (not metrics) are the records, counted by the metric's reader. */
  readonly countsRecords: boolean;
}

// Ids in ExportShape's resource and scope tables.
const HEADER = 0;
const SCHEMA = 1;
const SCHEMA_SNAKE = 2;
const CHILDREN = 3;
const CHILDREN_SNAKE = 4;
const FIELD_BIT = [1, 2, 2, 4, 4];

/** e.g. exportShape(['resourceLogs', 'resource_logs'], ['scopeLogs', 'scope_logs'], ['logRecords', 'log_records']). */
export function exportShape(resources: readonly [string, string], scopes: readonly [string, string], records: readonly [string, string], countsRecords = true): ExportShape {
  return {
    root: new NameTable(resources),
    resource: new NameTable(['resource', 'schemaUrl', 'schema_url', ...scopes]),
    scope: new NameTable(['scope', 'schemaUrl', 'schema_url', ...records]),
    countsRecords,
  };
}

interface Walk<S extends Signal> {
  readonly r: JsonReader;
  readonly shape: ExportShape;
  readonly out: Decoded<S>;
  /** Counts each record (ExportShape.countsRecords), and is rewound with the rows when an object is read again. */
  readonly budget: RecordBudget;
  readonly record: RecordReader<S>;
}

/**
 * Reads an export body: resources → scopes → records. A record that has a field of the wrong
 * type is skipped and counted; a resource or scope whose header is broken is skipped with all its
 * records counted; an entry that is not even an object counts as one. A body that is not JSON, or
 * not an export object, is unreadable as a whole, as it was when JSON.parse read it.
 */
export function readExport<S extends Signal>(body: Buffer, shape: ExportShape, budget: RecordBudget, record: RecordReader<S>): Decoded<S> {
  const out = emptyDecoded<S>();
  const r = new JsonReader(body);
  try {
    if (r.peek() === LBRACE) {
      readRoot({ r, shape, out, budget, record });
    } else {
      r.skip();
      out.skipped = 1;
      out.unreadable = 'the JSON body is not an export object';
    }
    r.finish();
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { rows: [], skipped: 1, unreadable: `not JSON: ${error.message}` };
    throw error;
  }
  return out;
}

function readRoot<S extends Signal>(w: Walk<S>): void {
  const { r, shape } = w;
  const start = r.pos;
  r.openObject();
  let seen = false;
  for (let id = r.member(shape.root, UNKNOWN); id !== END; id = r.member(shape.root, id)) {
    if (id === UNKNOWN) {
      r.skip();
      continue;
    }
    if (seen) {
      rewind(w, start, 0, 0, 0);
      exactRoot(w);
      return;
    }
    seen = true;
    if (r.null()) continue;
    if (r.buf[r.pos] !== LBRACKET || !withinBudget(w, resources)) {
      rewind(w, start, 0, 0, 0);
      exactRoot(w);
      return;
    }
  }
}

function exactRoot<S extends Signal>(w: Walk<S>): void {
  const { r, shape, out } = w;
  const at = r.members(shape.root);
  const end = r.pos;
  const p = r.pick(at, 0, 1);
  if (p !== -1 && r.buf[p] !== N) {
    if (r.buf[p] !== LBRACKET) {
      out.skipped++;
      out.unreadable = `${shape.root.names[0]} is not a list`;
    } else {
      r.pos = p;
      resources(w);
    }
  }
  r.pos = end;
}

/**
 * Reads an entry's children in one pass with `read`; false when the budget ran out there, for the
 * entry to be read again exactly: a header sent after its records may skip them uncounted, or a
 * later list stand in for this one, as the JSON.parse-based decoders counted.
 */
function withinBudget<S extends Signal, A extends unknown[]>(w: Walk<S>, read: (w: Walk<S>, ...args: A) => void, ...args: A): boolean {
  try {
    read(w, ...args);
    return true;
  } catch (error) {
    if (error instanceof DecodeAbort) return false;
    throw error;
  }
}

/** Drops what an object's first reading gave, to read it again (from `start`) as JSON.parse would. */
function rewind<S extends Signal>(w: Walk<S>, start: number, rows: number, skipped: number, counted: number): void {
  w.out.rows.length = rows;
  w.out.skipped = skipped;
  w.budget.rewind(counted);
  w.r.pos = start;
}

function resources<S extends Signal>(w: Walk<S>): void {
  const { r, out } = w;
  r.openArray();
  while (r.item()) {
    if (r.buf[r.pos] === LBRACE) resourceEntry(w);
    else {
      r.skip();
      out.skipped++;
    }
  }
}

function resourceEntry<S extends Signal>(w: Walk<S>): void {
  const { r, shape, out, budget } = w;
  const start = r.pos;
  const rows = out.rows.length;
  const skipped = out.skipped;
  const counted = budget.counted;
  // Rows share the resource by reference, so a header sent after the scopes (schemaUrl usually
  // is) is filled in when it comes.
  const res: Building<Resource> = { attributes: newAttributes(), droppedAttributesCount: 0, schemaUrl: '' };
  let seen = 0;
  r.openObject();
  for (let id = r.member(shape.resource, UNKNOWN); id !== END; id = r.member(shape.resource, id)) {
    if (id === UNKNOWN) {
      r.skip();
      continue;
    }
    const bit = FIELD_BIT[id] as number;
    if ((seen & bit) !== 0) {
      rewind(w, start, rows, skipped, counted);
      exactResourceEntry(w);
      return;
    }
    seen |= bit;
    if (id === HEADER || id === SCHEMA || id === SCHEMA_SNAKE) {
      try {
        if (id === HEADER) readResource(r, res);
        else res.schemaUrl = text(r);
      } catch (error) {
        if (!skipsRecord(error)) throw error;
        rewind(w, start, rows, skipped, counted);
        exactResourceEntry(w);
        return;
      }
    } else if (!r.null()) {
      if (r.buf[r.pos] !== LBRACKET || !withinBudget(w, scopes, res)) {
        rewind(w, start, rows, skipped, counted);
        exactResourceEntry(w);
        return;
      }
    }
  }
}

function scopes<S extends Signal>(w: Walk<S>, res: Resource): void {
  const { r, out } = w;
  r.openArray();
  while (r.item()) {
    if (r.buf[r.pos] === LBRACE) scopeEntry(w, res);
    else {
      r.skip();
      out.skipped++;
    }
  }
}

/**
 * The header (resource or scope) and schema_url of an entry, from where members() found their
 * winning values, into `into`; false when one of them makes the entry's records be skipped.
 */
function headerRead<T extends { schemaUrl: string }>(r: JsonReader, at: ReturnType<JsonReader['members']>, read: (r: JsonReader, into: T) => void, into: T): boolean {
  try {
    if (at[HEADER] !== -1) {
      r.pos = at[HEADER] as number;
      read(r, into);
    }
    const schema = r.pick(at, SCHEMA, SCHEMA_SNAKE);
    if (schema !== -1) {
      r.pos = schema;
      into.schemaUrl = text(r);
    }
    return true;
  } catch (error) {
    if (!skipsRecord(error)) throw error;
    return false;
  }
}

function exactResourceEntry<S extends Signal>(w: Walk<S>): void {
  const { r, shape, out } = w;
  const at = r.members(shape.resource);
  const end = r.pos;
  const list = r.pick(at, CHILDREN, CHILDREN_SNAKE);
  const res: Building<Resource> = { attributes: newAttributes(), droppedAttributesCount: 0, schemaUrl: '' };
  if (!headerRead(r, at, readResource, res)) {
    out.skipped += recordsUnderScopes(r, shape, list);
    r.pos = end;
    return;
  }
  if (list !== -1 && r.buf[list] !== N) {
    if (r.buf[list] !== LBRACKET) out.skipped++;
    else {
      r.pos = list;
      scopes(w, res);
    }
  }
  r.pos = end;
}

function scopeEntry<S extends Signal>(w: Walk<S>, res: Resource): void {
  const { r, shape, out, budget } = w;
  const start = r.pos;
  const rows = out.rows.length;
  const skipped = out.skipped;
  const counted = budget.counted;
  const sc: Building<Scope> = { name: '', version: '', attributes: newAttributes(), droppedAttributesCount: 0, schemaUrl: '' };
  let seen = 0;
  r.openObject();
  for (let id = r.member(shape.scope, UNKNOWN); id !== END; id = r.member(shape.scope, id)) {
    if (id === UNKNOWN) {
      r.skip();
      continue;
    }
    const bit = FIELD_BIT[id] as number;
    if ((seen & bit) !== 0) {
      rewind(w, start, rows, skipped, counted);
      exactScopeEntry(w, res);
      return;
    }
    seen |= bit;
    if (id === HEADER || id === SCHEMA || id === SCHEMA_SNAKE) {
      try {
        if (id === HEADER) readScope(r, sc);
        else sc.schemaUrl = text(r);
      } catch (error) {
        if (!skipsRecord(error)) throw error;
        rewind(w, start, rows, skipped, counted);
        exactScopeEntry(w, res);
        return;
      }
    } else if (!r.null()) {
      if (r.buf[r.pos] !== LBRACKET || !withinBudget(w, records, res, sc)) {
        rewind(w, start, rows, skipped, counted);
        exactScopeEntry(w, res);
        return;
      }
    }
  }
}

function exactScopeEntry<S extends Signal>(w: Walk<S>, res: Resource): void {
  const { r, shape, out } = w;
  const at = r.members(shape.scope);
  const end = r.pos;
  const list = r.pick(at, CHILDREN, CHILDREN_SNAKE);
  const sc: Building<Scope> = { name: '', version: '', attributes: newAttributes(), droppedAttributesCount: 0, schemaUrl: '' };
  if (!headerRead(r, at, readScope, sc)) {
    out.skipped += recordsIn(r, list);
    r.pos = end;
    return;
  }
  if (list !== -1 && r.buf[list] !== N) {
    if (r.buf[list] !== LBRACKET) out.skipped++;
    else {
      r.pos = list;
      records(w, res, sc);
    }
  }
  r.pos = end;
}

function records<S extends Signal>(w: Walk<S>, res: Resource, sc: Scope): void {
  const { r, shape, out, budget, record } = w;
  r.openArray();
  while (r.item()) {
    if (shape.countsRecords) budget.count();
    const at = r.pos;
    try {
      record(r, out, res, sc, budget);
    } catch (error) {
      if (!skipsRecord(error)) throw error;
      r.pos = at;
      r.skip();
      out.skipped++;
    }
  }
}

/** The records a list at `p` holds, for a scope skipped whole: its length, or 1 when it is not a list (as JSON.parse-based decoding counted). */
function recordsIn(r: JsonReader, p: number): number {
  if (p === -1 || r.buf[p] !== LBRACKET) return 1;
  r.pos = p;
  r.openArray();
  let count = 0;
  while (r.item()) {
    r.skip();
    count++;
  }
  return count;
}

/** The records under a resource's scopes at `p`, for a resource skipped whole. */
function recordsUnderScopes(r: JsonReader, shape: ExportShape, p: number): number {
  if (p === -1 || r.buf[p] === N) return 0;
  if (r.buf[p] !== LBRACKET) return 1;
  r.pos = p;
  r.openArray();
  let count = 0;
  while (r.item()) {
    if (r.buf[r.pos] !== LBRACE) {
      r.skip();
      count++;
      continue;
    }
    const at = r.members(shape.scope);
    const next = r.pos;
    count += recordsIn(r, r.pick(at, CHILDREN, CHILDREN_SNAKE));
    r.pos = next;
  }
  return count;
}
