// The decoders fill a row field by field as the wire gives them; only they see a row writable.
import type { Attributes, MutableAttributes } from './anyvalue.js';

/** Not distributed over unions: a body (an AnyValue that may be a map or an array) stays as it is. */
type Writable<V> = [V] extends [Attributes] ? MutableAttributes : [V] extends [readonly (infer E)[]] ? E[] : V;

/** A row (or Resource, Scope, Metric…) while its maker fills it in, before it is handed on read-only. */
export type Building<T> = { -readonly [K in keyof T]: Writable<T[K]> };
