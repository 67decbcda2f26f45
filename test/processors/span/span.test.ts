import { describe, expect, it } from 'vitest';
import { builtinRegistry } from '../../../src/components.js';
import { validateSpan, type SpanConfig } from '../../../src/processors/span/config.js';
import { spanTransform } from '../../../src/processors/span/span.js';
import type { SpanRow } from '../../../src/model/traces.js';
import { Service } from '../../../src/runtime/service.js';
import { captureExporter, recorder } from '../../helpers/components.js';
import { configFrom } from '../../helpers/config.js';
import { memoryLogger } from '../../helpers/logger.js';
import { attrs, logBatch, spanBatch } from '../../helpers/rows.js';
import { consumeContext } from '../../../src/runtime/component.js';

const baseName = { from_attributes: [] as string[], separator: '' };

function span(name: string, attributes: Record<string, unknown> = {}): SpanRow {
  const row = spanBatch().rows[0] as SpanRow;
  return { ...row, name, attributes: attrs(attributes as never), statusCode: 0, statusMessage: '' };
}

describe('span processor: name.from_attributes', () => {
  const config: SpanConfig = { name: { from_attributes: ['db.svc', 'operation', 'id'], separator: '::' } };
  it.each([
    ['all keys present', { 'db.svc': 'location', operation: 'get', id: '1234' }, 'location::get::1234'],
    ['typed values as text', { 'db.svc': true, operation: 12.5, id: 7n }, 'true::12.5::7'],
    ['a value of another type', { 'db.svc': ['a'], operation: 'get', id: '1' }, '<unknown-attribute-type>::get::1'],
    ['a key missing keeps the name', { 'db.svc': 'location', operation: 'get' }, 'serviceA'],
    ['no attributes keeps the name', {}, 'serviceA'],
  ])('%s', (_title, attributes, expected) => {
    expect(spanTransform(config)(span('serviceA', attributes)).name).toBe(expected);
  });

  it('joins without a separator when none is set', () => {
    const transform = spanTransform({ name: { from_attributes: ['a', 'b'], separator: '' } });
    expect(transform(span('x', { a: 'one', b: 'two' })).name).toBe('onetwo');
  });
});

describe('span processor: name.to_attributes', () => {
  const rules = (list: string[], extra: { break_after_match?: boolean; keep_original_name?: boolean } = {}): SpanConfig => ({
    name: { ...baseName, to_attributes: { rules: list, break_after_match: false, keep_original_name: false, ...extra } },
  });

  it('extracts named groups into attributes and names them in the span name (RE2 syntax too)', () => {
    const out = spanTransform(rules(['^/api/v1/document/(?P<documentId>.*)/update$']))(span('/api/v1/document/12345678/update', { keep: 'me' }));
    expect(out.name).toBe('/api/v1/document/{documentId}/update');
    expect({ ...out.attributes }).toEqual({ keep: 'me', documentId: '12345678' });
  });

  it('applies each rule to the name the previous one left, unless break_after_match', () => {
    const list = ['^/api/(?<version>v\\d)/', '/(?<id>\\d+)$'];
    const name = '/api/v2/orders/42';
    const all = spanTransform(rules(list))(span(name));
    expect([all.name, { ...all.attributes }]).toEqual(['/api/{version}/orders/{id}', { version: 'v2', id: '42' }]);
    const first = spanTransform(rules(list, { break_after_match: true }))(span(name));
    expect([first.name, { ...first.attributes }]).toEqual(['/api/{version}/orders/42', { version: 'v2' }]);
  });

  it('keeps the original name when asked, and overwrites an attribute of the same key', () => {
    const out = spanTransform(rules(['(?<id>\\d+)'], { keep_original_name: true }))(span('order 99', { id: 'old' }));
    expect([out.name, { ...out.attributes }]).toEqual(['order 99', { id: '99' }]);
  });

  it('returns the same span, unchanged, when no rule matches', () => {
    const input = span('health');
    expect(spanTransform(rules(['(?<id>\\d+)']))(input)).toBe(input);
  });
});

describe('span processor: status', () => {
  it.each([
    [{ code: 'Error', description: 'boom' } as const, 2, 'boom'],
    [{ code: 'Ok', description: '' } as const, 1, ''],
    [{ code: 'Unset', description: '' } as const, 0, ''],
  ])('%j', (status, code, message) => {
    const input = { ...span('x'), statusCode: 2, statusMessage: 'old' };
    const out = spanTransform({ name: baseName, status })(input);
    expect([out.statusCode, out.statusMessage]).toEqual([code, message]);
  });
});

describe('span processor settings', () => {
  it('needs something to do, valid expressions, and a description only for Error', () => {
    expect(validateSpan({ name: baseName })).toEqual([{ path: [], message: 'nothing to do: set name.from_attributes, name.to_attributes.rules or status' }]);
    expect(validateSpan({ name: { ...baseName, to_attributes: { rules: ['(?<a>x', 'ok'], break_after_match: false, keep_original_name: false } } })).toEqual([
      { path: ['name', 'to_attributes', 'rules', 0], message: 'not a valid regular expression: Invalid regular expression: /(?<a>x/d: Unterminated group' },
    ]);
    expect(validateSpan({ name: baseName, status: { code: 'Ok', description: 'fine' } })).toEqual([
      { path: ['status', 'description'], message: 'can be set only with code Error' },
    ]);
  });
});

describe('span processor in a pipeline', () => {
  it('changes the spans it passes on without changing the batch it was given', async () => {
    const rec = recorder();
    const registry = builtinRegistry().register(captureExporter(rec));
    const config = configFrom(
      `
receivers: {nop: }
processors: {span: {name: {from_attributes: [http.response.status_code], separator: "-"}, status: {code: Error, description: bad}}}
exporters: {capture: }
service:
  pipelines:
    traces: {receivers: [nop], processors: [span], exporters: [capture]}
    logs: {receivers: [nop], exporters: [capture]}
`,
      registry,
    );
    const service = new Service(config, memoryLogger().logger);
    await service.start();
    const batch = spanBatch();
    await service.consumer('nop', 'traces')?.consume(batch, consumeContext());
    const [out] = rec.batches.get('capture') ?? [];
    expect(out?.signal === 'traces' && out.rows.map((r) => [r.name, r.statusCode, r.statusMessage])).toEqual([['201', 2, 'bad']]);
    expect(batch.rows.map((r) => [r.name, r.statusCode])).toEqual([['POST /orders', 1]]);
    const logs = logBatch(1);
    await service.consumer('nop', 'logs')?.consume(logs, consumeContext());
    expect(rec.batches.get('capture')).toHaveLength(2);
    // Nothing to change: the same batch object goes on, not a copy.
    const done = out as typeof batch;
    await service.consumer('nop', 'traces')?.consume(done, consumeContext());
    expect(rec.batches.get('capture')?.[2]).toBe(done);
    expect(rec.batches.get('capture')?.[1]).toBe(logs);
    await service.shutdown();
  });
});
