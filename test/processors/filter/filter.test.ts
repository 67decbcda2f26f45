// The filter processor on batches pushed in process: which rows go on, what each error_mode does
// with a condition that cannot be evaluated, that a batch left empty goes no further, and the
// settings problems a Collector config meets (with the condition, its column and the fix).
import { describe, expect, it } from 'vitest';
import { PermanentError } from '../../../src/errors.js';
import type { LogRow } from '../../../src/model/logs.js';
import { consumeContext } from '../../../src/runtime/component.js';
import { readmeExample } from '../../helpers/processed.js';
import { processorPipeline, processorProblems } from '../../helpers/processors.js';
import { batchOf } from '../../../src/model/batch.js';
import type { SpanRow } from '../../../src/model/traces.js';
import { attrs, logBatch, logRow, RECEIVED, spanBatch } from '../../helpers/rows.js';

function pipeline(filter: string) {
  const made = processorPipeline('filter', filter);
  const taken = (): string[] => (made.rec.batches.get('capture') ?? []).flatMap((batch) => (batch.rows as LogRow[]).map((row) => String(row.body)));
  return { ...made, taken, push: (count: number, project = 'default') => made.push(logBatch(count, project)) };
}

const problems = (filter: string): string[] => processorProblems('filter', filter);

describe('the filter processor', () => {
  it('hands on the rows that match no condition, in their order, and the batch itself when none matches', async () => {
    const { service, taken, push, rec } = pipeline(`logs:\n  log_record:\n    - 'body == "order 1 placed"'\n    - 'attributes["order.id"] >= 1003'`);
    await service.start();
    await push(5);
    expect(taken()).toEqual(['order 0 placed', 'order 2 placed']);
    const untouched = logBatch(1);
    await service.consumer('nop', 'logs')?.consume(untouched, consumeContext());
    expect(rec.batches.get('capture')?.at(-1)).toBe(untouched);
    expect(taken()).toEqual(['order 0 placed', 'order 2 placed', 'order 0 placed']);
    await service.shutdown();
  });

  it('sends nothing on for a batch whose every row is dropped, and answers it as taken', async () => {
    const { service, taken, push } = pipeline(`logs:\n  log_record: ['project == "shop"']`);
    await service.start();
    await expect(push(3, 'shop')).resolves.toBeUndefined();
    expect(taken()).toEqual([]);
    await push(1, 'blog');
    expect(taken()).toEqual(['order 0 placed']);
    await service.shutdown();
  });

  it('error_mode propagate (the default) refuses the whole batch for good, naming the condition', async () => {
    const { service, taken, push } = pipeline(`logs:\n  log_record: ['ToLowerCase(attributes["amount"]) == "x"']`);
    await service.start();
    const refused = push(2);
    await expect(refused).rejects.toThrow(PermanentError);
    await expect(refused).rejects.toThrow('filter filter: the condition "ToLowerCase(attributes[\\"amount\\"]) == \\"x\\"" could not be evaluated on a log record: ToLowerCase: expected string but got float64');
    expect(taken()).toEqual([]);
    await service.shutdown();
  });

  it.each([
    ['ignore', 1],
    ['silent', 0],
  ] as const)('error_mode %s keeps a row a condition cannot be evaluated on, goes on to the next condition, and logs it %i times', async (mode, logged) => {
    const { service, taken, lines, push } = pipeline(`error_mode: ${mode}\nlogs:\n  log_record:\n    - 'ToLowerCase(attributes["amount"]) == "x"'\n    - 'body == "order 1 placed"'`);
    await service.start();
    await push(3);
    await push(1);
    expect(taken()).toEqual(['order 0 placed', 'order 2 placed', 'order 0 placed']);
    expect(lines.filter((l) => l['msg'] === 'A filter condition could not be evaluated on some rows; there it counted as not matching (error_mode: ignore)').map((l) => l['failures'])).toEqual(logged === 1 ? [3] : []);
    await service.shutdown();
  });

  it('names each condition that does not compile, with its column, and the settings otelgate does not take', () => {
    expect(problems(`logs:\n  log_record:\n    - 'body == "x"'\n    - 'IsMatch(body, "(a+)+$")'\n    - 'IsMatch(body, "x"'\n    - 'atributes["x"] == 1'`)).toEqual([
      'processors.filter.logs.log_record[1]: "IsMatch(body, \\"(a+)+$\\")", column 1: IsMatch: "(a+)+$" could take exponential time on some input (a repetition without an upper bound inside another, such as (a+)+); write it without the nesting',
      'processors.filter.logs.log_record[2]: "IsMatch(body, \\"x\\"", column 18: expected "," or ")" in the arguments of IsMatch but found the end',
      'processors.filter.logs.log_record[3]: "atributes[\\"x\\"] == 1", column 1: atributes["x"] is not a path of the log context. Did you mean "attributes"?',
    ]);
    expect(problems(`logs: {exclude: {match_type: strict, bodies: [x]}}\ntraces: {span: ['nam == "x"'], spanevent: ['kind == 1']}\nmetrics: {include: {match_type: strict, metric_names: [x]}, metric: ['nmae == "x"'], datapoint: ['name == "x"']}`)).toEqual([
      'processors.filter.logs.exclude: the older include/exclude matching is not supported in otelgate; write it as OTTL conditions under logs.log_record, e.g. \'resource.attributes["service.name"] == "checkout"\'',
      'processors.filter.metrics.include: the older include/exclude matching is not supported in otelgate; write it as OTTL conditions under metrics.metric, e.g. \'resource.attributes["service.name"] == "checkout"\'',
      'processors.filter.traces.span[0]: "nam == \\"x\\"", column 1: nam is not a path of the span context. Did you mean "name"?',
      'processors.filter.traces.spanevent[0]: "kind == 1", column 1: kind is not a path of the spanevent context. Did you mean "span.kind"?',
      'processors.filter.metrics.metric[0]: "nmae == \\"x\\"", column 1: nmae is not a path of the metric context. Did you mean "name"?',
      'processors.filter.metrics.datapoint[0]: "name == \\"x\\"", column 1: name is not a path of the datapoint context. Did you mean "metric.name"?',
    ]);
  });

  it('does what the example in its README says', async () => {
    const { service, taken, rec } = pipeline(readmeExample('filter', 'filter/noise'));
    await service.start();
    const row = (body: string, severityNumber: number, attributes = {}): LogRow => ({ ...logRow(0), body, severityNumber, attributes: attrs(attributes) });
    const rows = [
      row('GET /health', 9, { 'http.route': '/health' }),
      row('GET /cart', 9, { 'http.route': '/cart' }),
      row('cache miss', 5),
      row('entering loop', 1),
      row('no severity', 0),
      row('debug: kept in shop', 9),
    ];
    for (const project of ['shop', 'blog']) await service.consumer('nop', 'logs')?.consume(batchOf('logs', project, RECEIVED, rows), consumeContext());
    expect(taken()).toEqual(['GET /cart', 'no severity', 'debug: kept in shop', 'GET /cart', 'no severity']);
    const base = spanBatch().rows[0] as SpanRow;
    const spans = [{ ...base, name: 'GET /health', attributes: attrs({ 'http.route': '/health' }) }, base];
    await service.consumer('nop', 'traces')?.consume(batchOf('traces', 'shop', RECEIVED, spans), consumeContext());
    expect((rec.batches.get('capture')?.at(-1)?.rows as SpanRow[]).map((span) => span.name)).toEqual(['POST /orders']);
    await service.shutdown();
  });

  it('drops the spans that match traces.span, and from the others the events that match traces.spanevent, in new rows', async () => {
    const { service, rec } = pipeline(`traces:\n  span: ['name == "GET /health"']\n  spanevent: ['name == "noise" and span.kind == SPAN_KIND_SERVER']`);
    await service.start();
    const base = spanBatch().rows[0] as SpanRow;
    const event = (name: string) => ({ timeUnixNano: base.startTimeUnixNano, name, attributes: attrs({}), droppedAttributesCount: 0 });
    const health = { ...base, name: 'GET /health' };
    const noisy = { ...base, events: [event('noise'), event('validated'), event('noise')] };
    const quiet = { ...base, events: [event('validated')] };
    const batch = batchOf('traces', 'shop', RECEIVED, [health, noisy, quiet]);
    await service.consumer('nop', 'traces')?.consume(batch, consumeContext());
    const out = rec.batches.get('capture')?.at(-1)?.rows as SpanRow[];
    expect(out.map((s) => [s.name, s.events.map((e) => e.name)])).toEqual([
      ['POST /orders', ['validated']],
      ['POST /orders', ['validated']],
    ]);
    // The row that lost events is a new one; the one that lost none is the row that came; nothing that came changed.
    expect(out[0]).not.toBe(noisy);
    expect(out[1]).toBe(quiet);
    expect(noisy.events.map((e) => e.name)).toEqual(['noise', 'validated', 'noise']);
    expect(batch.rows).toHaveLength(3);
    await service.shutdown();
  });
});
