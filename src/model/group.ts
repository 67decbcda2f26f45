// Rows back into the nesting OTLP sends them in: resource → scope → records, and for metrics
// → metric → points. Every exporter that writes OTLP-shaped output runs this on every batch.
import { isAttributes, type AnyValue, type Attributes } from './anyvalue.js';
import type { RowOf } from './batch.js';
import type { DataPointRow, Metric } from './metrics.js';
import type { Resource, Scope } from './resource.js';
import type { Signal } from './signal.js';

type Row = RowOf<Signal>;

export interface GroupOptions {
  /**
   * Merge resources, scopes and metrics that are equal by value though distinct objects, as in a
   * batch joined from several requests. Off by default: rows decoded from one request already
   * share these objects by reference, and comparing by identity costs a map lookup per change.
   */
  byValue?: boolean;
}

export type RowGroups<R> = Map<Resource, Map<Scope, R[]>>;
export type PointGroups = Map<Resource, Map<Scope, Map<Metric, DataPointRow[]>>>;

/**
 * Rows grouped by resource, then scope, each in order of first appearance; rows keep their order
 * within a group. By identity unless `byValue`; the map keys are the first object of each group.
 */
export function groupRows<R extends Row>(rows: readonly R[], options: GroupOptions = {}): RowGroups<R> {
  const same = options.byValue === true ? new ByValue() : undefined;
  const groups: RowGroups<R> = new Map();
  // Rows of one resource and scope mostly come in runs: a run costs no lookup after its first row.
  let lastResource: Resource | undefined;
  let lastScope: Scope | undefined;
  let last: R[] = [];
  for (const row of rows) {
    if (row.resource === lastResource && row.scope === lastScope) {
      last.push(row);
      continue;
    }
    const resource = same === undefined ? row.resource : same.resource(row.resource);
    let scopes = groups.get(resource);
    if (scopes === undefined) groups.set(resource, (scopes = new Map()));
    const scope = same === undefined ? row.scope : same.scope(row.scope);
    let list = scopes.get(scope);
    if (list === undefined) scopes.set(scope, (list = []));
    list.push(row);
    lastResource = row.resource;
    lastScope = row.scope;
    last = list;
  }
  return groups;
}

/** Data points grouped as groupRows does, and then by metric within each scope: one group per metric message to write. */
export function groupPoints(rows: readonly DataPointRow[], options: GroupOptions = {}): PointGroups {
  const same = options.byValue === true ? new ByValue() : undefined;
  const out: PointGroups = new Map();
  for (const [resource, scopes] of groupRows(rows, options)) {
    const byScope = new Map<Scope, Map<Metric, DataPointRow[]>>();
    out.set(resource, byScope);
    for (const [scope, points] of scopes) {
      const metrics = new Map<Metric, DataPointRow[]>();
      byScope.set(scope, metrics);
      let lastMetric: Metric | undefined;
      let last: DataPointRow[] = [];
      for (const point of points) {
        if (point.metric !== lastMetric) {
          const metric = same === undefined ? point.metric : same.metric(point.metric);
          let list = metrics.get(metric);
          if (list === undefined) metrics.set(metric, (list = []));
          lastMetric = point.metric;
          last = list;
        }
        last.push(point);
      }
    }
  }
  return out;
}

/**
 * The first object seen with each value. A key is built once per distinct object (a batch of a
 * thousand rows has a handful of resources), never per row.
 */
class ByValue {
  private readonly seen = new Map<object, object>();
  private readonly firsts = new Map<string, object>();

  resource(resource: Resource): Resource {
    return this.first(resource, () => `r${resource.droppedAttributesCount}${JSON.stringify(resource.schemaUrl)}${attributesKey(resource.attributes)}`);
  }

  scope(scope: Scope): Scope {
    return this.first(scope, () => `s${JSON.stringify([scope.name, scope.version, scope.schemaUrl, scope.droppedAttributesCount])}${attributesKey(scope.attributes)}`);
  }

  metric(metric: Metric): Metric {
    return this.first(metric, () => {
      const fields = [metric.name, metric.description, metric.unit, metric.type, metric.temporality, metric.isMonotonic];
      return `m${JSON.stringify(fields)}${attributesKey(metric.metadata)}`;
    });
  }

  private first<T extends object>(object: T, key: () => string): T {
    let first = this.seen.get(object);
    if (first === undefined) {
      const k = key();
      first = this.firsts.get(k);
      if (first === undefined) this.firsts.set(k, (first = object));
      this.seen.set(object, first);
    }
    return first as T;
  }
}

/**
 * A text that two values share exactly when they encode the same: each kind tagged, attribute
 * maps with their keys sorted (their order carries no meaning), -0 apart from 0.
 */
function valueKey(value: AnyValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return Object.is(value, -0) ? 'd-0' : `d${value}`;
  if (typeof value === 'bigint') return `i${value}`;
  if (value === null) return 'n';
  if (value instanceof Uint8Array) return `b${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64')}`;
  if (isAttributes(value)) return attributesKey(value);
  return `[${value.map(valueKey).join(',')}]`;
}

function attributesKey(attributes: Attributes): string {
  const keys = Object.keys(attributes).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${valueKey(attributes[key] as AnyValue)}`).join(',')}}`;
}
