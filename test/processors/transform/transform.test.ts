// The transform processor on batches pushed in process: each editor's effect on rows, statements
// in order, where clauses and group conditions, resource and scope contexts (once per resource,
// one new resource for all its rows), error_mode, context inference, that the batch that came is
// never changed, that project cannot be set, and the settings problems with their columns.
import { describe, expect, it } from 'vitest';
import { PermanentError } from '../../../src/errors.js';
import { batchOf, type Batch } from '../../../src/model/batch.js';
import type { AnyValue, Attributes } from '../../../src/model/anyvalue.js';
import type { LogRow } from '../../../src/model/logs.js';
import type { Scope } from '../../../src/model/resource.js';
import type { SpanRow } from '../../../src/model/traces.js';
import { readmeExample } from '../../helpers/processed.js';
import { processorPipeline, processorProblems } from '../../helpers/processors.js';
import { attrs, exclusiveCopy, logRow, RECEIVED, resource, scope, spanBatch } from '../../helpers/rows.js';

const pipeline = (settings: string) => processorPipeline('transform', settings);
const problems = (settings: string): string[] => processorProblems('transform', settings);

/** Two rows of one resource and a third of another; attributes `a`, `b`, `secret`. */
function logs(project = 'shop'): Batch<'logs'> {
  const shared = resource('checkout');
  const other = resource('billing');
  const row = (i: number, res = shared): LogRow => ({ ...logRow(i, res), attributes: attrs({ a: `a${i}`, b: BigInt(i), secret: 'password=hunter2 token=abc' }) });
  return batchOf('logs', project, RECEIVED, [row(0), row(1), row(2, other)]);
}

const attributesOf = (batch: Batch | undefined): Record<string, AnyValue>[] => ((batch?.rows ?? []) as LogRow[]).map((row) => ({ ...row.attributes }));

async function pushed(settings: string, batch: Batch): Promise<{ out: Batch | undefined; lines: Record<string, unknown>[] }> {
  const { service, last, push, lines } = pipeline(settings);
  await service.start();
  await push(batch);
  await service.shutdown();
  return { out: last(), lines };
}

/** The batch out of the processor; the same batch made exclusive (its maps changed in place) comes out with the same rows. */
async function run(settings: string, batch: Batch = logs()): Promise<{ out: Batch | undefined; batch: Batch; lines: Record<string, unknown>[] }> {
  const { out, lines } = await pushed(settings, batch);
  expect((await pushed(settings, exclusiveCopy(batch))).out?.rows).toEqual(out?.rows);
  return { out, batch, lines };
}

describe('the transform processor', () => {
  it('set, delete_key, keep_keys and replace_pattern change new rows, in order; the batch that came stays as it was', async () => {
    const { out, batch } = await run(`log_statements:
  - set(log.attributes["c"], Concat([log.attributes["a"], "x"], "-"))
  - delete_key(log.attributes, "b")
  - replace_pattern(log.attributes["secret"], "password=[^\\\\s]*", "password=***")
  - keep_keys(log.attributes, ["a", "c", "secret"])
  - set(log.severity_text, "WARN") where log.attributes["a"] == "a1"
  - set(log.severity_number, SEVERITY_NUMBER_WARN) where log.severity_text == "WARN"`);
    expect(attributesOf(out)).toEqual([
      { a: 'a0', c: 'a0-x', secret: 'password=*** token=abc' },
      { a: 'a1', c: 'a1-x', secret: 'password=*** token=abc' },
      { a: 'a2', c: 'a2-x', secret: 'password=*** token=abc' },
    ]);
    expect((out?.rows as LogRow[]).map((r) => [r.severityText, r.severityNumber])).toEqual([['INFO', 9], ['WARN', 13], ['INFO', 9]]);
    expect(attributesOf(batch)).toEqual([0, 1, 2].map((i) => ({ a: `a${i}`, b: BigInt(i), secret: 'password=hunter2 token=abc' })));
    expect((batch.rows as LogRow[]).map((r) => [r.severityText, r.severityNumber, r.body])).toEqual([0, 1, 2].map((i) => ['INFO', 9, `order ${i} placed`]));
  });

  it('never lets a map a statement set elsewhere change with a later statement (maps are changed in place only where nothing else holds them)', async () => {
    const { out } = await run(`log_statements:
  - set(log.attributes["a"], "x")
  - set(resource.attributes, log.attributes)
  - set(log.attributes["self"], log.attributes)
  - set(log.attributes["later"], true)
  - delete_key(log.attributes, "b")`);
    const row = (out?.rows as LogRow[])[0] as LogRow;
    // The resource is the two first rows' (the last one to set it wins, as with a shared resource in the Collector).
    expect({ ...row.resource.attributes }).toEqual({ a: 'x', b: 1n, secret: 'password=hunter2 token=abc' });
    expect({ ...(row.attributes['self'] as Record<string, AnyValue>) }).toEqual({ a: 'x', b: 0n, secret: 'password=hunter2 token=abc' });
    expect(Object.keys(row.attributes)).toEqual(['a', 'secret', 'self', 'later']);
  });

  it('never lets one row\'s later change to a shared resource show in a map another row took from it', async () => {
    const { out } = await run(`log_statements:
  - set(resource.attributes["k"], log.attributes["a"])
  - set(log.attributes["res"], resource.attributes)
  - set(resource.attributes["z"], "late") where log.attributes["a"] == "a1"`);
    const rows = out?.rows as LogRow[];
    expect(rows.slice(0, 2).map((row) => ({ ...(row.attributes['res'] as Record<string, AnyValue>) }))).toEqual([
      { 'service.name': 'checkout', 'host.name': 'web-1', k: 'a1' },
      { 'service.name': 'checkout', 'host.name': 'web-1', k: 'a1' },
    ]);
    expect({ ...rows[0]?.resource.attributes }).toEqual({ 'service.name': 'checkout', 'host.name': 'web-1', k: 'a1', z: 'late' });
  });

  it('puts a copy of a map the statements made into a literal, so that no map holds itself or changes elsewhere later', async () => {
    const { out, batch } = await run(`log_statements:
  - set(log.attributes["a"], "x")
  - 'set(log.attributes["m"], {"inner": log.attributes})'
  - set(resource.attributes["snap"], [log.attributes])
  - set(log.attributes["z"], 1)`);
    const row = (out?.rows as LogRow[])[2] as LogRow;
    const inner = (row.attributes['m'] as Record<string, AnyValue>)['inner'] as Record<string, AnyValue>;
    expect(inner).not.toBe(row.attributes);
    expect(Object.keys(inner)).toEqual(['a', 'b', 'secret']);
    expect(Object.keys((row.resource.attributes['snap'] as unknown as Record<string, AnyValue>[])[0] ?? {})).toEqual(['a', 'b', 'secret', 'm']);
    expect((batch.rows as LogRow[])[2]?.resource.attributes['snap']).toBeUndefined();
  });

  it('changes a map under a key in a copy, so that a copy of its parent set elsewhere keeps what it had', async () => {
    const nested = (i: number): LogRow => ({ ...logRow(i, resource('checkout')), attributes: attrs({ http: attrs({ a: 1n, b: 2n, c: 3n }) }) });
    const { out } = await run(
      `log_statements:
  - delete_key(log.attributes["http"], "a")
  - set(log.attributes["copy"], log.attributes)
  - delete_key(log.attributes["http"], "b")
  - truncate_all(log.attributes["http"], 0)`,
      batchOf('logs', 'shop', RECEIVED, [nested(0)]),
    );
    const row = (out?.rows as LogRow[])[0] as LogRow;
    expect(Object.keys(row.attributes['http'] as object)).toEqual(['c']);
    expect(Object.keys((row.attributes['copy'] as Record<string, AnyValue>)['http'] as object)).toEqual(['b', 'c']);
  });

  it('runs a scope\'s statements once for each resource that has it, and changes it for that resource only', async () => {
    const shared = { ...logRow(0).scope };
    const rowOf = (i: number, service: string): LogRow => ({ ...logRow(i, resource(service)), scope: shared });
    const { out } = await run(
      `log_statements:
  - context: scope
    statements: ['set(attributes["service"], resource.attributes["service.name"])']`,
      batchOf('logs', 'shop', RECEIVED, [rowOf(0, 'checkout'), rowOf(1, 'billing'), rowOf(2, 'checkout')]),
    );
    expect((out?.rows as LogRow[]).map((r) => r.scope.attributes['service'])).toEqual(['checkout', 'billing', 'checkout']);
    expect(shared.attributes['service']).toBeUndefined();
  });

  it('wraps integers into 32-bit fields as Go converts them, takes an all-zero id as none, and cannot set trace_state by key', async () => {
    const { out } = await run(`log_statements:
  - set(log.dropped_attributes_count, -1)
  - set(log.severity_number, 4294967297)
  - set(log.trace_id.string, "00000000000000000000000000000000")`);
    expect((out?.rows as LogRow[]).map((r) => [r.droppedAttributesCount, r.severityNumber, r.traceId])[0]).toEqual([4294967295, 1, '']);
    expect(problems(`trace_statements: ['set(span.trace_state["k"], "v")']`)).toEqual(['processors.transform.trace_statements[0]: "set(span.trace_state[\\"k\\"], \\"v\\")", column 5: span.trace_state["k"] cannot be set in the span context']);
    expect(problems('metric_statements: []')).toEqual([]);
  });

  it('changes an exclusive batch\'s rows and their attributes in place and hands them on in a new array of an exclusive batch, while each row holds an attributes map no one else does', async () => {
    const batch = exclusiveCopy(logs());
    const maps = (batch.rows as LogRow[]).map((row) => row.attributes);
    const inPlace = await pushed(`log_statements:\n  - set(log.attributes["c"], "x")\n  - replace_pattern(log.attributes["a"], "a", "z")\n  - set(log.severity_text, "WARN")`, batch);
    expect(inPlace.out?.exclusive).toBe(true);
    expect(inPlace.out?.rows).not.toBe(batch.rows);
    expect((inPlace.out?.rows as LogRow[]).map((row, i) => row === batch.rows[i] && row.attributes === maps[i] && row.severityText)).toEqual(['WARN', 'WARN', 'WARN']);
    expect(maps.map((m) => ({ ...m }))).toEqual([0, 1, 2].map((i) => ({ a: `z${i}`, b: BigInt(i), secret: 'password=hunter2 token=abc', c: 'x' })));
    // A map the statements made in place of the one a row came with is the row's alone too.
    const again = exclusiveCopy(logs());
    const made = await pushed(`log_statements:\n  - set(log.attributes["c"], "x")\n  - delete_key(log.attributes, "b")\n  - set(log.attributes["d"], "y")`, again);
    expect(made.out?.exclusive).toBe(true);
    expect((made.out?.rows as LogRow[]).map((row, i) => row === again.rows[i])).toEqual([true, true, true]);
    expect(attributesOf(made.out)).toEqual([0, 1, 2].map((i) => ({ a: `a${i}`, secret: 'password=hunter2 token=abc', c: 'x', d: 'y' })));
    // A row that takes a map held elsewhere (its resource's) makes the batch one to copy on write.
    const third = exclusiveCopy(logs());
    const resources = (third.rows as LogRow[]).map((row) => row.resource);
    const sharing = await pushed(`log_statements:\n  - set(log.attributes, resource.attributes) where log.attributes["a"] == "a1"`, third);
    expect(sharing.out?.exclusive).toBe(false);
    expect((sharing.out?.rows as LogRow[]).map((row, i) => row === third.rows[i] && row.attributes === resources[i]?.attributes)).toEqual([false, true, false]);
  });

  it('keeps a map one group made for a row as the row\'s own in the next groups, and never changes in place one it also put elsewhere', async () => {
    const settings = `log_statements:
  - statements: ['delete_key(log.attributes, "b")']
  - statements: ['set(log.attributes["c"], "x")', 'set(resource.attributes["kept"], log.attributes) where log.attributes["a"] == "a0"']
  - statements: ['set(log.attributes["d"], "y")']`;
    const { out, batch } = await run(settings);
    const expected = (i: number): Record<string, AnyValue> => ({ a: `a${i}`, secret: 'password=hunter2 token=abc', c: 'x', d: 'y' });
    expect(attributesOf(out)).toEqual([0, 1, 2].map(expected));
    // The resource took the map as it was when it was set, and keeps it so.
    const rows = out?.rows as LogRow[];
    expect({ ...(rows[0]?.resource.attributes['kept'] as Attributes) }).toEqual({ a: 'a0', secret: 'password=hunter2 token=abc', c: 'x' });
    expect(rows[1]?.resource).toBe(rows[0]?.resource);
    expect(attributesOf(batch)).toEqual([0, 1, 2].map((i) => ({ a: `a${i}`, b: BigInt(i), secret: 'password=hunter2 token=abc' })));
    const exclusive = exclusiveCopy(logs());
    const inPlace = (await pushed(settings, exclusive)).out;
    expect([inPlace?.exclusive, (inPlace?.rows as LogRow[]).every((row, i) => row === exclusive.rows[i])]).toEqual([true, true]);
  });

  it('gives an exclusive batch\'s rows, changed in place, the one new resource their statements made (changed by each of them), and leaves the resource that came as it was', async () => {
    const sc = scope();
    const batch = exclusiveCopy(logs());
    for (const row of batch.rows as LogRow[]) (row as { scope: Scope }).scope = sc;
    const before = (batch.rows as LogRow[]).map((row) => row.resource);
    const { out } = await pushed(`log_statements:\n  - set(resource.attributes["region"], "eu") where log.attributes["a"] == "a1"\n  - set(scope.name, "renamed") where log.attributes["a"] == "a1"`, batch);
    const rows = out?.rows as LogRow[];
    expect(rows.map((row, i) => row === batch.rows[i])).toEqual([true, true, true]);
    // The scope of the resource changed: row 0 takes its new one too, row 2 (another resource) not.
    expect(rows.map((row) => row.scope.name)).toEqual(['renamed', 'renamed', 'app.logger']);
    expect(sc.name).toBe('app.logger');
    // Row 0, done before row 1 changed their resource, takes the new one too; row 2 had another.
    expect(rows.map((row, i) => row.resource === before[i])).toEqual([false, false, true]);
    expect(rows[0]?.resource).toBe(rows[1]?.resource);
    expect(rows.map((row) => row.resource.attributes['region'])).toEqual(['eu', 'eu', undefined]);
    expect(before.map((r) => r?.attributes['region'])).toEqual([undefined, undefined, undefined]);
    // A row after the one that changed them reads the new ones, in place or not (one group: its
    // statements run on a row, then on the next).
    const shared = logs();
    const rows2 = (shared.rows as LogRow[]).map((row) => ({ ...row, scope: sc }));
    const reading = await run(
      `log_statements:
  - context: log
    statements:
      - set(resource.attributes["region"], "eu") where attributes["a"] == "a0"
      - set(scope.name, "renamed") where attributes["a"] == "a0"
      - set(attributes["read"], Concat([resource.attributes["region"], scope.name], " "))`,
      batchOf('logs', 'shop', RECEIVED, rows2),
    );
    expect(attributesOf(reading.out).map((a) => a['read'])).toEqual(['eu renamed', 'eu renamed', '<nil> app.logger']);
  });

  it('hands on the batch itself when no statement changes a row', async () => {
    const { out, batch } = await run(`log_statements: ['set(log.attributes["a"], "z") where log.attributes["a"] == "none"']`);
    expect(out).toBe(batch);
  });

  it('runs resource statements once per resource, giving every row of a resource the same new one', async () => {
    const { out, batch } = await run(`log_statements:
  - context: resource
    statements:
      - set(attributes["env"], "prod")
      - set(attributes["seen"], Len(attributes))`);
    const rows = out?.rows as LogRow[];
    expect(rows.map((r) => r.resource.attributes['env'])).toEqual(['prod', 'prod', 'prod']);
    expect(rows[0]?.resource).toBe(rows[1]?.resource);
    expect(rows[0]?.resource).not.toBe(rows[2]?.resource);
    expect(rows.map((r) => r.resource.attributes['seen'])).toEqual([3n, 3n, 3n]);
    expect((batch.rows as LogRow[]).map((r) => r.resource.attributes['env'])).toEqual([undefined, undefined, undefined]);
  });

  it('infers the context from the paths: resource alone runs once per resource, a log path or one without a context\'s name on each row', async () => {
    const { out } = await run(`log_statements:
  - set(resource.attributes["count"], Len(resource.attributes))
  - set(resource.attributes["team"], "payments") where resource.attributes["service.name"] == "billing"
  - set(log.attributes["team"], resource.attributes["team"])
  - set(attributes["owner"], "ops") where resource.attributes["service.name"] == "checkout"`);
    const rows = out?.rows as LogRow[];
    expect(rows.map((r) => [r.resource.attributes['count'], r.resource.attributes['team'], r.attributes['team'], r.attributes['owner']])).toEqual([
      [2n, undefined, undefined, 'ops'],
      [2n, undefined, undefined, 'ops'],
      [2n, 'payments', 'payments', undefined],
    ]);
    expect(rows.map((r) => r.resource.attributes['owner'])).toEqual([undefined, undefined, undefined]);
  });

  it('runs a group\'s statements only on rows one of its conditions holds for', async () => {
    const { out } = await run(`log_statements:
  - conditions: ['log.attributes["a"] == "a0"', 'log.attributes["a"] == "a2"']
    statements: ['set(log.attributes["picked"], true)']`);
    expect(attributesOf(out).map((a) => a['picked'])).toEqual([true, undefined, true]);
  });

  it('delete_matching_keys, keep_matching_keys, replace_all_patterns and truncate_all', async () => {
    const deleted = await run(`log_statements: ['delete_matching_keys(log.attributes, "^(a|b)$")']`);
    expect(attributesOf(deleted.out)[0]).toEqual({ secret: 'password=hunter2 token=abc' });
    const kept = await run(`log_statements: ['keep_matching_keys(log.attributes, "^s")']`);
    expect(attributesOf(kept.out)[0]).toEqual({ secret: 'password=hunter2 token=abc' });
    const values = await run(`log_statements: ['replace_all_patterns(log.attributes, "value", "(\\\\w+)=(\\\\w+)", "$1=<$\${2}>")']`);
    expect(attributesOf(values.out)[0]).toEqual({ a: 'a0', b: 0n, secret: 'password=<hunter2> token=<abc>' });
    const keys = await run(`log_statements: ['replace_all_patterns(log.attributes, "key", "^secret$", "hidden")']`);
    expect(Object.keys(attributesOf(keys.out)[0] ?? {})).toEqual(['a', 'b', 'hidden']);
    const cut = await run(`log_statements: ['truncate_all(log.attributes, 8)']`);
    expect(attributesOf(cut.out)[0]).toEqual({ a: 'a0', b: 0n, secret: 'password' });
  });

  it('error_mode ignore goes on with the next statement and logs once; propagate (the default) refuses the batch for good', async () => {
    const ignored = await run(`error_mode: ignore
log_statements:
  - set(log.attributes["x"], ToLowerCase(log.attributes["b"]))
  - set(log.attributes["after"], true)`);
    expect(attributesOf(ignored.out).map((a) => a['after'])).toEqual([true, true, true]);
    expect(ignored.lines.filter((l) => l['msg'] === 'A transform statement failed on some rows; they went on without it (error_mode: ignore)').map((l) => l['failures'])).toEqual([3]);
    // propagate is the default, as the Collector's.
    const { service, push, last } = pipeline(`log_statements: ['set(log.attributes["x"], ToLowerCase(log.attributes["b"]))']`);
    await service.start();
    await expect(push(logs())).rejects.toThrow(PermanentError);
    await expect(push(logs())).rejects.toThrow('transform transform: "set(log.attributes[\\"x\\"], ToLowerCase(log.attributes[\\"b\\"]))" failed on a row: ToLowerCase: expected string but got int64');
    expect(last()).toBeUndefined();
    await service.shutdown();
  });

  it('changes spans: name, status, attributes, with the span context inferred', async () => {
    const { out } = await run(`trace_statements:
  - set(span.name, "GET /orders/{id}") where IsMatch(span.name, "^POST")
  - set(span.status.code, STATUS_CODE_ERROR) where span.attributes["http.response.status_code"] >= 200
  - set(span.attributes["rewritten"], true)`, spanBatch());
    const span = (out?.rows as SpanRow[])[0];
    expect([span?.name, span?.statusCode, span?.attributes['rewritten']]).toEqual(['GET /orders/{id}', 2, true]);
  });

  it('cannot set the project, nor a path it does not have, and names each statement that does not compile', () => {
    expect(problems(`log_statements:
  - set(project, "other")
  - set(log.attributes["a"], 1
  - sett(log.attributes["a"], 1)
  - IsMatch(log.body, "x")
trace_statements:
  - context: spanevent
    statements: ['set(project, "x")']
metric_statements: ['set(metric.nme, "x")']`)).toEqual([
      'processors.transform.log_statements[0]: "set(project, \\"other\\")", column 5: project cannot be set in the log context',
      'processors.transform.log_statements[1]: "set(log.attributes[\\"a\\"], 1", column 27: expected "," or ")" in the arguments of set but found the end',
      'processors.transform.log_statements[2]: "sett(log.attributes[\\"a\\"], 1)", column 1: sett is not an editor otelgate has. Did you mean "set"?',
      'processors.transform.log_statements[3]: "IsMatch(log.body, \\"x\\")", column 1: editor names must start with a lowercase letter but got \'IsMatch\'',
      'processors.transform.trace_statements[0].statements[0]: "set(project, \\"x\\")", column 5: project cannot be set in the spanevent context',
      'processors.transform.metric_statements[0]: "set(metric.nme, \\"x\\")", column 5: metric.nme cannot be set in the metric context: it is not one of its paths',
    ]);
  });

  it('does what the example in its README says', async () => {
    const { service, push, last } = pipeline(readmeExample('transform', 'transform/tidy'));
    await service.start();
    const billing = resource('billing');
    const failed = { ...logRow(0, billing), severityNumber: 17, body: 'login failed password=hunter2 for ann' };
    const fine = { ...logRow(1, billing), body: 'invoice sent' };
    await push(batchOf('logs', 'shop', RECEIVED, [failed, fine]));
    const logsOut = last()?.rows as LogRow[];
    expect(logsOut.map((r) => [r.body, r.attributes['alert'], r.resource.attributes['team']])).toEqual([
      ['login failed password=*** for ann', true, 'payments'],
      ['invoice sent', undefined, 'payments'],
    ]);
    const base = spanBatch().rows[0] as SpanRow;
    const span = { ...base, attributes: attrs({ 'http.route': '/pay', 'http.response.status_code': 503n, 'user.email': 'ann@example.com' }) };
    await push(batchOf('traces', 'shop', RECEIVED, [span]));
    const spanOut = (last()?.rows as SpanRow[])[0];
    expect([{ ...spanOut?.attributes }, spanOut?.statusCode]).toEqual([{ 'http.route': '/pay', 'http.response.status_code': 503n }, 2]);
    await service.shutdown();
  });
});
