// The simple JSON endpoint's decoder as it was before issue 17 replaced it with a byte reader
// (JSON.parse, then the parsed objects mapped to rows; timestamps as src/simple/time.ts read them
// then): the bench's measure of "today's decoder" in the same run, kept as bench/protobufjs-rows.mjs
// keeps a decoder for comparison. test/simple/reference-decode.ts is its TypeScript twin, the
// tests' reference. Built output of that code; shared helpers come from dist.
import { newAttributes } from '../dist/model/anyvalue.js';
import { normalizeHex } from '../dist/otlp/hex.js';
import { discarded, RecordBudget, TooManyRecords } from '../dist/otlp/result.js';
import { severityNumber } from '../dist/simple/levels.js';

const ISO = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;
const DIGITS = /^\d+(\.\d+)?$/;
const MAX_NS = 2n ** 64n - 1n;
/** Only times a log record can carry: after the epoch, within fixed64 nanoseconds. */
function inRange(ns) {
    return ns > 0n && ns <= MAX_NS ? ns : undefined;
}
function fromIso(text) {
    const m = ISO.exec(text.trim());
    if (m === null)
        return undefined;
    const [, y, mo, d, h, mi, s, fraction = '', zone = 'Z'] = m;
    // Date.UTC reads years 0-99 as 1900-1999; years before 1970 give no valid time here anyway.
    if (Number(y) < 1970)
        return undefined;
    const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
    if (Number.isNaN(ms) || Number(mo) > 12 || Number(d) > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 60)
        return undefined;
    let offsetMinutes = 0;
    if (zone !== 'Z' && zone !== 'z') {
        const sign = zone.startsWith('-') ? -1 : 1;
        const digits = zone.slice(1).replace(':', '');
        offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0'));
    }
    return inRange((BigInt(ms) - BigInt(offsetMinutes) * 60000n) * 1000000n + BigInt(fraction.padEnd(9, '0')));
}
/** Epoch numbers by magnitude: seconds, milliseconds, microseconds or nanoseconds. */
function fromEpoch(text) {
    if (!DIGITS.test(text))
        return undefined;
    const [whole = '0', fraction = ''] = text.split('.');
    const digits = whole.replace(/^0+(?=\d)/, '').length;
    const scale = digits <= 11 ? 9 : digits <= 14 ? 6 : digits <= 17 ? 3 : 0;
    const ns = BigInt(whole) * 10n ** BigInt(scale) + BigInt((fraction + '0'.repeat(scale)).slice(0, scale) || '0');
    return inRange(ns);
}
/**
 * ISO 8601 / RFC 3339 (with offset, or UTC when none, up to nanoseconds), or epoch seconds,
 * milliseconds, microseconds or nanoseconds as a number or digit string. Undefined otherwise.
 */
function parseTimestamp(value) {
    if (typeof value === 'number') {
        if (!Number.isFinite(value) || value <= 0)
            return undefined;
        return fromEpoch(Number.isInteger(value) ? BigInt(value).toString() : String(value));
    }
    if (typeof value !== 'string')
        return undefined;
    return fromEpoch(value.trim()) ?? fromIso(value);
}
//# sourceMappingURL=time.js.map
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The first alias present (not undefined or null). */
function pick(o, names) {
    for (const name of names) {
        const value = o[name];
        if (value !== undefined && value !== null)
            return value;
    }
    return undefined;
}
function text(value) {
    if (typeof value === 'string')
        return value;
    if (typeof value === 'object')
        return JSON.stringify(value);
    return String(value);
}
/** Nested objects become dotted keys; every value becomes a string (arrays as JSON). */
function flatten(value, into = newAttributes(), prefix = '') {
    for (const [key, inner] of Object.entries(value)) {
        const name = prefix === '' ? key : `${prefix}.${key}`;
        if (isObject(inner))
            flatten(inner, into, name);
        else
            into[name] = inner === null ? 'null' : text(inner);
    }
    return into;
}
const emptyScope = (name) => ({ name, version: '', attributes: newAttributes(), droppedAttributesCount: 0, schemaUrl: '' });
export function decodeSimpleLogsBefore(body, arrivalUnixNano, records = new RecordBudget(Number.POSITIVE_INFINITY)) {
    let root;
    try {
        const source = body.toString('utf8');
        root = JSON.parse(source.charCodeAt(0) === 0xfeff ? source.slice(1) : source);
    }
    catch (error) {
        return { rows: [], skipped: 1, unreadable: `not JSON: ${error.message}` };
    }
    const items = Array.isArray(root) ? root : [root];
    if (items.length > records.limit)
        return discarded(new TooManyRecords(records.limit));
    const resources = new Map();
    const scopes = new Map();
    const out = { rows: [], skipped: 0 };
    for (const item of items) {
        records.count();
        // One record that cannot be mapped (nesting too deep to flatten, say) is skipped on its own.
        try {
            const row = toRow(item, arrivalUnixNano, resources, scopes);
            if (row === undefined)
                out.skipped++;
            else
                out.rows.push(row);
        }
        catch {
            out.skipped++;
        }
    }
    return out;
}
/**
 * A row's trace and span ids mean one thing everywhere: lower-case hex, or ''. A client's id that
 * is hex of the right length, in any case, is that id; the text as sent ("stored as given", the
 * contract says) is kept in the record's attribute `trace_id`/`span_id` whenever it differs from
 * that hex (another case, or not an id at all: a request id, say), where a Collector's json_parser
 * would leave it too. The field wins over a context key of the same name.
 */
function id(value, bytes, attribute, attributes) {
    if (value === undefined || value === null)
        return '';
    const sent = text(value);
    if (sent === '')
        return '';
    const hex = sent.length === bytes * 2 ? normalizeHex(sent) : undefined;
    if (hex !== sent)
        attributes[attribute] = sent;
    return hex ?? '';
}
/** The row for one item, or undefined when it has no usable message (or is not an object). */
function toRow(item, arrivalUnixNano, resources, scopes) {
    if (!isObject(item))
        return undefined;
    const message = pick(item, ['message', 'body']);
    if (message === undefined)
        return undefined;
    const service = pick(item, ['service', 'service_name']);
    const serviceName = service === undefined ? '' : text(service);
    let resource = resources.get(serviceName);
    if (resource === undefined) {
        const attributes = newAttributes();
        if (serviceName !== '')
            attributes['service.name'] = serviceName;
        resources.set(serviceName, (resource = { attributes, droppedAttributesCount: 0, schemaUrl: '' }));
    }
    const scopeValue = item['scope'];
    const scopeName = scopeValue === undefined || scopeValue === null ? '' : text(scopeValue);
    let scope = scopes.get(scopeName);
    if (scope === undefined)
        scopes.set(scopeName, (scope = emptyScope(scopeName)));
    const level = pick(item, ['level', 'severity']);
    const severityText = level === undefined ? '' : text(level);
    const context = pick(item, ['context', 'attributes']);
    const traceId = pick(item, ['trace_id', 'traceId']);
    const spanId = pick(item, ['span_id', 'spanId']);
    const event = item['event'];
    const attributes = isObject(context) ? flatten(context) : newAttributes();
    const row = {
        resource,
        scope,
        timeUnixNano: parseTimestamp(pick(item, ['timestamp', 'time'])) ?? arrivalUnixNano,
        observedTimeUnixNano: arrivalUnixNano,
        severityNumber: typeof level === 'string' ? severityNumber(level) : 0,
        severityText,
        body: text(message),
        attributes,
        droppedAttributesCount: 0,
        flags: 0,
        traceId: id(traceId, 16, 'trace_id', attributes),
        spanId: id(spanId, 8, 'span_id', attributes),
        eventName: event === undefined || event === null ? '' : text(event),
    };
    return row;
}
//# sourceMappingURL=decode.js.map
