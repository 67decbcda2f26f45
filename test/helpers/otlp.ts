// Test-side OTLP tools: protobufjs (the reference codec) encodes an OTLP JSON export into its
// protobuf twin, and rows are written in a canonical JSON form for golden files.
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import type { Signal } from '../../src/model/signal.js';

const root = protobuf.loadSync(fileURLToPath(new URL('../../proto/otlp.proto', import.meta.url)));

const REQUESTS: Record<Signal, string> = {
  logs: 'opentelemetry.proto.ExportLogsServiceRequest',
  traces: 'opentelemetry.proto.ExportTraceServiceRequest',
  metrics: 'opentelemetry.proto.ExportMetricsServiceRequest',
};

export function requestType(signal: Signal): protobuf.Type {
  return root.lookupType(REQUESTS[signal]);
}

export function responseType(signal: Signal): protobuf.Type {
  return root.lookupType(REQUESTS[signal].replace('Request', 'Response'));
}

const ID_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);
const camel = (key: string): string => key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** OTLP JSON → the object protobufjs expects: camelCase names, ids as bytes instead of hex. */
function forProtobufjs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(forProtobufjs);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const name = camel(key);
    out[name] = ID_FIELDS.has(name) && typeof inner === 'string' ? Buffer.from(inner, 'hex') : forProtobufjs(inner);
  }
  return out;
}

export function otlpJsonToProtobuf(signal: Signal, json: unknown): Buffer {
  const type = requestType(signal);
  return Buffer.from(type.encode(type.fromObject(forProtobufjs(json) as Record<string, unknown>)).finish());
}

function indexOf<T>(list: T[], item: T): number {
  const at = list.indexOf(item);
  if (at !== -1) return at;
  list.push(item);
  return list.length - 1;
}

/**
 * Rows as stable, readable JSON: shared resources, scopes and metrics listed once and referred to
 * by index (which also shows they are shared by reference), bigints as "123n", bytes as base64.
 */
export function canonicalRows(rows: readonly object[]): string {
  const resources: unknown[] = [];
  const scopes: unknown[] = [];
  const metrics: unknown[] = [];
  const out = rows.map((row) => {
    const r = row as Record<string, unknown>;
    const copy: Record<string, unknown> = { ...r, resource: indexOf(resources, r['resource']), scope: indexOf(scopes, r['scope']) };
    if ('metric' in r) copy['metric'] = indexOf(metrics, r['metric']);
    return copy;
  });
  return `${JSON.stringify({ resources, scopes, metrics, rows: out }, (_key, value: unknown) => {
    if (typeof value === 'bigint') return `${value}n`;
    if (value instanceof Uint8Array) return { bytes: Buffer.from(value).toString('base64') };
    if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
    if (value === undefined) return '(undefined)';
    return value;
  }, 1)}\n`;
}
