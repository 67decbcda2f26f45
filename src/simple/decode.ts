// The simple JSON log endpoint's body (one object or an array of them) → log rows, with the
// field aliases of the interface contract. Only a usable message is required. The body is read
// straight from its bytes (read.ts); every answer is the one JSON.parse's reading of it gave
// before (test/simple/reference-decode.ts keeps that decoder, which the tests hold this one to).
import { newAttributes, type MutableAttributes } from '../model/anyvalue.js';
import type { LogRow } from '../model/logs.js';
import type { Resource, Scope } from '../model/resource.js';
import { normalizeHex } from '../otlp/hex.js';
import { JsonReader, JsonSyntaxError, LBRACE, LBRACKET } from '../otlp/json/reader.js';
import { DecodeAbort, discarded, RecordBudget, TooManyRecords, type Decoded } from '../otlp/result.js';
import { severityNumber } from './levels.js';
import { EVENT, LEVEL, MESSAGE, SCOPE, SERVICE, SimpleRecord, SPAN_ID, TRACE_ID } from './read.js';

const record = new SimpleRecord();

const emptyScope = (name: string): Scope => ({ name, version: '', attributes: newAttributes(), droppedAttributesCount: 0, schemaUrl: '' });

export function decodeSimpleLogs(body: Buffer, arrivalUnixNano: bigint, records = new RecordBudget(Number.POSITIVE_INFINITY)): Decoded<'logs'> {
  const walk = new Walk(body, arrivalUnixNano, records);
  try {
    walk.read();
  } catch (error) {
    return walk.stopped(error);
  } finally {
    record.release();
  }
  return walk.out;
}

/** One body being read: its records, one by one, into rows. */
class Walk {
  readonly out: Decoded<'logs'> = { rows: [], skipped: 0 };
  private readonly r: JsonReader;
  private readonly resources = new Map<string, Resource>();
  private readonly scopes = new Map<string, Scope>();
  /** What the budget had counted before this body. */
  private readonly counted: number;
  private items = 0;
  private inArray = false;

  constructor(
    private readonly body: Buffer,
    private readonly arrivalUnixNano: bigint,
    private readonly records: RecordBudget,
  ) {
    this.r = new JsonReader(body);
    this.counted = records.counted;
  }

  read(): void {
    const { r } = this;
    if (r.peek() === LBRACKET) {
      this.inArray = true;
      r.openArray();
      while (r.item()) this.item();
    } else {
      this.item();
    }
    r.finish();
  }

  private item(): void {
    const { r, out } = this;
    this.items++;
    // Past the limit, count() throws, and stopped() answers as if nothing had been counted.
    this.records.count();
    if (r.buf[r.pos] !== LBRACE) {
      r.skip();
      out.skipped++;
      return;
    }
    record.read(r);
    let row: LogRow | undefined;
    // One record that cannot be mapped (nesting too deep to flatten, say) is skipped on its own.
    try {
      row = toRow(record, this.arrivalUnixNano, this.resources, this.scopes);
    } catch {
      row = undefined;
    }
    if (row === undefined) out.skipped++;
    else out.rows.push(row);
  }

  /**
   * The answer for a body whose reading stopped: JSON.parse read a body whole before any record
   * was counted, so a body that is not JSON is unreadable whatever came before, and one with too
   * many records is discarded, with nothing counted; only then does a budget's refusal count.
   */
  stopped(error: unknown): Decoded<'logs'> {
    if (error instanceof JsonSyntaxError) return this.notJson(error);
    if (!(error instanceof DecodeAbort)) throw error;
    try {
      this.skipRest();
    } catch (broken) {
      if (broken instanceof JsonSyntaxError) return this.notJson(broken);
      throw broken;
    }
    if (this.items <= this.records.limit) throw error;
    this.records.rewind(this.counted);
    return discarded(new TooManyRecords(this.records.limit));
  }

  /** From the record it stopped at, the rest of the body, counting the records. */
  private skipRest(): void {
    const { r } = this;
    r.skip();
    if (this.inArray) {
      while (r.item()) {
        r.skip();
        this.items++;
      }
    }
    r.finish();
  }

  /** Clients are told what is wrong in JSON.parse's words, as before: only a broken body is parsed for them. */
  private notJson(error: JsonSyntaxError): Decoded<'logs'> {
    this.records.rewind(this.counted);
    const source = this.body.toString('utf8');
    let message = error.message;
    try {
      JSON.parse(source.charCodeAt(0) === 0xfeff ? source.slice(1) : source);
    } catch (parseError) {
      message = (parseError as Error).message;
    }
    return { rows: [], skipped: 1, unreadable: `not JSON: ${message}` };
  }
}

/**
 * A row's trace and span ids mean one thing everywhere: lower-case hex, or ''. A client's id that
 * is hex of the right length, in any case, is that id; the text as sent ("stored as given", the
 * contract says) is kept in the record's attribute `trace_id`/`span_id` whenever it differs from
 * that hex (another case, or not an id at all: a request id, say), where a Collector's json_parser
 * would leave it too. The field wins over a context key of the same name.
 */
function id(record: SimpleRecord, field: number, bytes: number, attribute: string, attributes: MutableAttributes): string {
  const sent = record.text(field);
  if (sent === undefined || sent === '') return '';
  // Lower-case hex, as ids usually come, is known from the bytes: its text needs no test.
  const hex = sent.length !== bytes * 2 ? undefined : record.isLowerHex(field) ? sent : normalizeHex(sent);
  if (hex !== sent) attributes[attribute] = sent;
  return hex ?? '';
}

/** The row for a record, or undefined when it has no usable message. */
function toRow(record: SimpleRecord, arrivalUnixNano: bigint, resources: Map<string, Resource>, scopes: Map<string, Scope>): LogRow | undefined {
  const message = record.text(MESSAGE);
  if (message === undefined) return undefined;
  const serviceName = record.text(SERVICE) ?? '';
  let resource = resources.get(serviceName);
  if (resource === undefined) {
    const attributes = newAttributes();
    if (serviceName !== '') attributes['service.name'] = serviceName;
    resources.set(serviceName, (resource = { attributes, droppedAttributesCount: 0, schemaUrl: '' }));
  }
  const scopeName = record.text(SCOPE) ?? '';
  let scope = scopes.get(scopeName);
  if (scope === undefined) scopes.set(scopeName, (scope = emptyScope(scopeName)));
  const severityText = record.text(LEVEL) ?? '';
  const attributes = record.attributes();
  const row: LogRow = {
    resource,
    scope,
    timeUnixNano: record.time() ?? arrivalUnixNano,
    observedTimeUnixNano: arrivalUnixNano,
    severityNumber: record.isString(LEVEL) ? severityNumber(severityText) : 0,
    severityText,
    body: message,
    attributes,
    droppedAttributesCount: 0,
    flags: 0,
    traceId: id(record, TRACE_ID, 16, 'trace_id', attributes),
    spanId: id(record, SPAN_ID, 8, 'span_id', attributes),
    eventName: record.text(EVENT) ?? '',
  };
  return row;
}
