// The decoders fill a row field by field as the wire gives them; only they see a row writable.
import { newAttributes, type Attributes, type MutableAttributes } from './anyvalue.js';
import type { LogRow } from './logs.js';
import type { Resource, Scope } from './resource.js';

/** Not distributed over unions: a body (an AnyValue that may be a map or an array) stays as it is. */
type Writable<V> = [V] extends [Attributes] ? MutableAttributes : [V] extends [readonly (infer E)[]] ? E[] : V;

/** A row (or Resource, Scope, Metric…) while its maker fills it in, before it is handed on read-only. */
export type Building<T> = { -readonly [K in keyof T]: Writable<T[K]> };

/**
 * A log record with every field at its default, for a reader to fill in: both readers make their
 * rows here, so that every log row has one object layout (the same properties in the same order).
 */
export function emptyLogRow(resource: Resource, scope: Scope): Building<LogRow> {
  return {
    resource,
    scope,
    timeUnixNano: 0n,
    observedTimeUnixNano: 0n,
    severityNumber: 0,
    severityText: '',
    body: null,
    attributes: newAttributes(),
    droppedAttributesCount: 0,
    flags: 0,
    traceId: '',
    spanId: '',
    eventName: '',
  };
}
