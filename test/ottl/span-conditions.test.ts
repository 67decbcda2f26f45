// OTTL conditions in the span and span event contexts, with the results the Collector's ottlspan
// and ottlspanevent paths give.
import { describe, expect, it } from 'vitest';
import type { SpanRow } from '../../src/model/traces.js';
import { compileCondition } from '../../src/ottl/compile.js';
import { spanContext, spanEventContext } from '../../src/ottl/contexts/span.js';
import { OttlError } from '../../src/ottl/errors.js';
import { parseCondition } from '../../src/ottl/parser.js';
import { spanBatch } from '../helpers/rows.js';

const SPAN: SpanRow = { ...(spanBatch().rows[0] as SpanRow), parentSpanId: '53995c3f42cd8ad8', traceState: 'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7' };
const EVENT = SPAN.events[0] as SpanRow['events'][number];

describe('OTTL conditions on a span', () => {
  it.each([
    ['name == "POST /orders"', true],
    ['span.name == "POST /orders"', true],
    ['kind == SPAN_KIND_SERVER', true],
    ['kind.string == "Server"', true],
    ['kind != SPAN_KIND_CLIENT', true],
    ['status.code == STATUS_CODE_OK', true],
    ['status.message == ""', true],
    ['attributes["http.response.status_code"] == 201', true],
    ['end_time_unix_nano - start_time_unix_nano > 2000000', true],
    ['end_time_unix_nano - start_time_unix_nano > 3000000', false],
    ['trace_id.string == "5b8efff798038103d269b633813fc60c"', true],
    ['span_id == 0xeee19b7ec3c1b174', true],
    ['parent_span_id.string == "53995c3f42cd8ad8"', true],
    ['parent_span_id != 0x0000000000000000', true],
    ['trace_state == "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7"', true],
    ['trace_state["rojo"] == "00f067aa0ba902b7"', true],
    ['trace_state["blanco"] == nil', true],
    ['flags == 1', true],
    ['dropped_events_count == 0', true],
    ['resource.attributes["service.name"] == "checkout"', true],
    ['instrumentation_scope.name == "app.tracer"', true],
    ['project == "shop"', true],
    ['IsMatch(name, "^POST ") and attributes["http.response.status_code"] >= 200', true],
  ] as const)('%s is %s', (text, expected) => {
    expect(compileCondition(parseCondition(text), spanContext)({ row: SPAN, project: 'shop' })).toBe(expected);
  });
});

describe('OTTL conditions on a span event', () => {
  it.each([
    ['name == "validated"', true],
    ['spanevent.name == "validated"', true],
    ['attributes["rules"] == 3', true],
    ['time_unix_nano > span.start_time_unix_nano', true],
    ['span.name == "POST /orders"', true],
    ['span.attributes["http.response.status_code"] == 201', true],
    ['resource.attributes["service.name"] == "checkout"', true],
    ['dropped_attributes_count == 0', true],
  ] as const)('%s is %s', (text, expected) => {
    expect(compileCondition(parseCondition(text), spanEventContext)({ row: SPAN, event: EVENT, project: 'shop' })).toBe(expected);
  });

  it('has no span paths without their span. prefix', () => {
    expect(() => compileCondition(parseCondition('kind == 2'), spanEventContext)).toThrow(OttlError);
    expect(() => compileCondition(parseCondition('kind == 2'), spanEventContext)).toThrow('column 1: kind is not a path of the spanevent context.');
  });
});
