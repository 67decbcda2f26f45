import { describe, expect, it } from 'vitest';
import { groupPoints, groupRows } from '../../src/model/group.js';
import type { LogRow } from '../../src/model/logs.js';
import type { DataPointRow, Metric } from '../../src/model/metrics.js';
import type { Resource, Scope } from '../../src/model/resource.js';
import { attrs, logRow, metricBatch, resource, scope, T0 } from '../helpers/rows.js';

/** The groups as [resource, [scope, row numbers]] for exact comparison; row numbers are logRow's `i`. */
function shape(groups: Map<Resource, Map<Scope, LogRow[]>>): [Resource, [Scope, number[]][]][] {
  return [...groups].map(([res, scopes]) => [res, [...scopes].map(([sc, rows]) => [sc, rows.map((r) => Number(r.timeUnixNano - T0))])]);
}

describe('groupRows by identity (the default)', () => {
  it('groups by the resource object, then the scope object, in order of first appearance, rows in their order', () => {
    const [web, worker] = [resource('web'), resource('worker')];
    const [a, b] = [scope('a'), scope('b')];
    const rows = [logRow(0, web, a), logRow(1, worker, a), logRow(2, web, b), logRow(3, web, a), logRow(4, worker, a), logRow(5, web, b)];
    expect(shape(groupRows(rows))).toEqual([
      [web, [[a, [0, 3]], [b, [2, 5]]]],
      [worker, [[a, [1, 4]]]],
    ]);
    const groups = groupRows(rows);
    expect([...groups.keys()][0]).toBe(web);
    expect([...(groups.get(web) as Map<Scope, LogRow[]>).keys()]).toEqual([a, b]);
    expect((groups.get(web) as Map<Scope, LogRow[]>).get(a)?.[1]).toBe(rows[3]);
  });

  it('keeps resources and scopes that are equal by value but distinct objects apart', () => {
    const [one, twin] = [resource('web'), resource('web')];
    const sc = scope();
    const scTwin = scope();
    const rows = [logRow(0, one, sc), logRow(1, twin, sc), logRow(2, one, scTwin)];
    const groups = groupRows(rows);
    expect(groups.size).toBe(2);
    expect(shape(groups)).toEqual([
      [one, [[sc, [0]], [scTwin, [2]]]],
      [twin, [[sc, [1]]]],
    ]);
  });

  it('gives an empty map for no rows', () => {
    expect(groupRows([]).size).toBe(0);
    expect(groupPoints([]).size).toBe(0);
  });
});

describe('groupRows by value', () => {
  it('merges resources and scopes equal by value, keyed by the first object seen, rows in their order', () => {
    const [web, webTwin, worker] = [resource('web'), resource('web'), resource('worker')];
    const [a, aTwin] = [scope('a'), scope('a')];
    const rows = [logRow(0, web, a), logRow(1, worker, aTwin), logRow(2, webTwin, aTwin), logRow(3, web, a), logRow(4, webTwin, scope('b'))];
    const groups = groupRows(rows, { byValue: true });
    expect(groups.size).toBe(2);
    expect([...groups.keys()]).toEqual([web, worker]);
    expect([...groups.keys()][0]).toBe(web);
    const webScopes = groups.get(web) as Map<Scope, LogRow[]>;
    expect([...webScopes.keys()].map((s) => s.name)).toEqual(['a', 'b']);
    expect([...webScopes.keys()][0]).toBe(a);
    expect(webScopes.get(a)?.map((r) => r.timeUnixNano - T0)).toEqual([0n, 2n, 3n]);
    // The scope under worker is a's twin: one scope object stands for the value everywhere.
    expect([...(groups.get(worker) as Map<Scope, LogRow[]>).keys()][0]).toBe(a);
  });

  it('ignores the order of attribute keys, at every depth', () => {
    const r1: Resource = { attributes: attrs({ x: '1', y: attrs({ p: 1n, q: [attrs({ m: true, n: null })] }) }), droppedAttributesCount: 0, schemaUrl: '' };
    const r2: Resource = { attributes: attrs({ y: attrs({ q: [attrs({ n: null, m: true })], p: 1n }), x: '1' }), droppedAttributesCount: 0, schemaUrl: '' };
    const sc = scope();
    expect(groupRows([logRow(0, r1, sc), logRow(1, r2, sc)], { byValue: true }).size).toBe(1);
  });

  it.each<[string, Resource['attributes'][string], Resource['attributes'][string]]>([
    ['a string and an int', '1', 1n],
    ['an int and a double', 1n, 1],
    ['0 and -0', 0, -0],
    ['a string and bytes', 'AQI=', new Uint8Array([1, 2])],
    ['different bytes', new Uint8Array([1, 2]), new Uint8Array([1, 3])],
    ['empty and an empty string', null, ''],
    ['an array and a map', ['a'], attrs({ 0: 'a' })],
    ['a nested array and its flat form', [['a', 'b']], ['a', 'b']],
    ['true and the string "t"', true, 't'],
  ])('keeps apart values that encode differently: %s', (_name, left, right) => {
    const sc = scope();
    const make = (value: Resource['attributes'][string]): Resource => ({ attributes: attrs({ k: value }), droppedAttributesCount: 0, schemaUrl: '' });
    expect(groupRows([logRow(0, make(left), sc), logRow(1, make(right), sc)], { byValue: true }).size).toBe(2);
    expect(groupRows([logRow(0, make(left), sc), logRow(1, make(left), sc)], { byValue: true }).size).toBe(1);
  });

  it('counts NaN equal to NaN, as both encode the same', () => {
    const sc = scope();
    const make = (): Resource => ({ attributes: attrs({ k: Number.NaN }), droppedAttributesCount: 0, schemaUrl: '' });
    expect(groupRows([logRow(0, make(), sc), logRow(1, make(), sc)], { byValue: true }).size).toBe(1);
  });

  it('keeps apart resources differing in schema URL or dropped count, and scopes in any field', () => {
    const sc = scope();
    const base = resource();
    const rows = [
      logRow(0, base, sc),
      logRow(1, { ...resource(), schemaUrl: 'https://opentelemetry.io/schemas/1.26.0' }, sc),
      logRow(2, { ...resource(), droppedAttributesCount: 1 }, sc),
    ];
    expect(groupRows(rows, { byValue: true }).size).toBe(3);
    const scopes: Scope[] = [scope('a'), { ...scope('a'), version: '2' }, { ...scope('a'), schemaUrl: 'u' }, { ...scope('a'), droppedAttributesCount: 3 }, { ...scope('a'), attributes: attrs({ k: 'v' }) }, scope('a')];
    const groups = groupRows(
      scopes.map((s, i) => logRow(i, base, s)),
      { byValue: true },
    );
    expect((groups.get(base) as Map<Scope, LogRow[]>).size).toBe(5);
  });

  it('builds the key of each distinct object once, not once per row', () => {
    let reads = 0;
    const counted = (name: string): Resource => {
      const r = resource(name);
      const attributes = r.attributes;
      return Object.defineProperty(r, 'attributes', {
        get: () => {
          reads++;
          return attributes;
        },
      });
    };
    const [r1, r2] = [counted('web'), counted('worker')];
    const sc = scope();
    // Interleaved, so that no run of equal neighbours hides a per-row key.
    const rows = Array.from({ length: 1000 }, (_, i) => logRow(i, i % 2 === 0 ? r1 : r2, sc));
    const groups = groupRows(rows, { byValue: true });
    expect([...groups.values()].map((scopes) => (scopes.get(sc) as LogRow[]).length)).toEqual([500, 500]);
    expect(reads).toBe(2);
  });
});

describe('groupPoints', () => {
  const { rows } = metricBatch();
  const [counter, latency] = rows as [DataPointRow, DataPointRow];

  it('groups points by metric object within each scope, in order of first appearance', () => {
    const more = { ...counter, value: 43n };
    const groups = groupPoints([counter, latency, more]);
    const metrics = groups.get(counter.resource)?.get(counter.scope) as Map<Metric, DataPointRow[]>;
    expect(groups.size).toBe(1);
    expect([...metrics.keys()]).toEqual([counter.metric, latency.metric]);
    expect([...metrics.keys()][0]).toBe(counter.metric);
    expect(metrics.get(counter.metric)).toEqual([counter, more]);
    expect(metrics.get(latency.metric)).toEqual([latency]);
  });

  it('by identity keeps metrics equal by value apart; by value merges them, but never across scopes', () => {
    const twin = { ...counter, metric: { ...counter.metric, metadata: attrs({}) }, value: 44n };
    const otherScope = { ...counter, scope: scope('other'), value: 45n };
    const points = [counter, twin, otherScope];
    const byIdentity = groupPoints(points);
    expect(byIdentity.get(counter.resource)?.get(counter.scope)?.size).toBe(2);
    expect(byIdentity.get(counter.resource)?.size).toBe(2);
    const byValue = groupPoints(points, { byValue: true });
    const merged = byValue.get(counter.resource)?.get(counter.scope) as Map<Metric, DataPointRow[]>;
    expect(merged.size).toBe(1);
    expect(merged.get(counter.metric)?.map((p) => (p.kind === 'number' ? p.value : undefined))).toEqual([42n, 44n]);
    expect(byValue.get(counter.resource)?.size).toBe(2);
  });

  it('by value keeps apart metrics that differ in any field', () => {
    const m = counter.metric;
    const variants: Metric[] = [
      m,
      { ...m, name: 'other' },
      { ...m, description: 'other' },
      { ...m, unit: 's' },
      { ...m, temporality: 1 },
      { ...m, isMonotonic: false },
      { ...m, metadata: attrs({ k: 'v' }) },
      { ...m, type: 'gauge' },
    ];
    const groups = groupPoints(
      variants.map((metric) => ({ ...counter, metric })),
      { byValue: true },
    );
    expect(groups.get(counter.resource)?.get(counter.scope)?.size).toBe(8);
  });
});
