// The three line formats, with the Collector's loki exporter's keys.
import { describe, expect, it } from 'vitest';
import { lineOf } from '../../../src/exporters/loki/line.js';
import { attrs, logRow, resource, scope } from '../../helpers/rows.js';

describe('Loki lines', () => {
  it('raw: the body as text', () => {
    expect(lineOf('raw', logRow(3))).toBe('order 3 placed');
  });

  it('json: the whole record with the Collector\'s keys, empty ones left out', () => {
    expect(JSON.parse(lineOf('json', logRow(3)))).toEqual({
      body: 'order 3 placed',
      traceid: '5b8efff798038103d269b633813fc60c',
      spanid: 'eee19b7ec3c1b174',
      severity: 'INFO',
      flags: 1,
      attributes: { 'order.id': 1003, amount: 12.5, paid: true },
      resources: { 'service.name': 'checkout', 'host.name': 'web-1' },
      instrumentation_scope: { name: 'app.logger', version: '1.2.0' },
    });
    const bare = { ...logRow(0, { attributes: attrs({}), droppedAttributesCount: 0, schemaUrl: '' }, { ...scope(''), version: '' }), body: null, traceId: '', spanId: '', severityText: '', flags: 0, attributes: attrs({}) };
    expect(lineOf('json', bare)).toBe('{}');
  });

  it('logfmt: msg, ids, severity, flags, attribute_ and resource_ keys, and the scope; values with spaces or quotes quoted', () => {
    expect(lineOf('logfmt', logRow(3))).toBe(
      'msg="order 3 placed" traceID=5b8efff798038103d269b633813fc60c spanID=eee19b7ec3c1b174 severity=INFO flags=1 attribute_order.id=1003 attribute_amount=12.5 attribute_paid=true resource_service.name=checkout resource_host.name=web-1 instrumentation_scope_name=app.logger instrumentation_scope_version=1.2.0',
    );
  });

  it('logfmt: a map body by its keys, nested keys joined with _, arrays by index; bad key characters become _', () => {
    const row = {
      ...logRow(0, resource(), { ...scope(''), version: '' }),
      traceId: '',
      spanId: '',
      severityText: '',
      flags: 0,
      attributes: attrs({ 'a key': 'x=y', quote: 'say "hi"', empty: '', nul: 'null' }),
      resource: { attributes: attrs({}), droppedAttributesCount: 0, schemaUrl: '' },
      body: attrs({ user: attrs({ id: 7n, roles: ['admin', 'dev'] }), ok: false }),
    };
    expect(lineOf('logfmt', row)).toBe('user_id=7 user_roles_0=admin user_roles_1=dev ok=false attribute_a_key="x=y" attribute_quote="say \\"hi\\"" attribute_empty= attribute_nul="null"');
  });
});
