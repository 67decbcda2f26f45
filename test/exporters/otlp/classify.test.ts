// The otlp exporter reads the end of a call as the Collector's otlp exporter does (processError):
// which gRPC codes are retried, RESOURCE_EXHAUSTED only when the backend sent a RetryInfo, the
// delay a RetryInfo asks for, and a partial success in an OK answer.
import { describe, expect, it } from 'vitest';
import { classifyGrpc } from '../../../src/exporters/otlp/grpc-sender.js';
import { parseGrpcEndpoint } from '../../../src/exporters/otlp/config.js';
import { exportResponse } from '../../../src/otlp/response.js';
import { retryDelayMs, statusProtobuf } from '../../../src/otlp/status.js';

const withRetryInfo = (seconds: number): Buffer => statusProtobuf({ code: 8, message: 'slow down', retryAfterSeconds: seconds });

describe('classifyGrpc', () => {
  it.each([
    [1, 'retryable'],
    [2, 'permanent'],
    [3, 'permanent'],
    [4, 'retryable'],
    [5, 'permanent'],
    [7, 'permanent'],
    [8, 'permanent'],
    [9, 'permanent'],
    [10, 'retryable'],
    [11, 'retryable'],
    [12, 'permanent'],
    [13, 'permanent'],
    [14, 'retryable'],
    [15, 'retryable'],
    [16, 'permanent'],
  ] as const)('code %i without RetryInfo is %s', (code, kind) => {
    expect(classifyGrpc(code, 'why', undefined, undefined).kind).toBe(kind);
  });

  it('retries RESOURCE_EXHAUSTED with a RetryInfo, after the delay it asks for', () => {
    const outcome = classifyGrpc(8, 'slow down', withRetryInfo(7), undefined);
    expect(outcome).toMatchObject({ kind: 'retryable', failure: 'grpc_status', grpcStatus: 'RESOURCE_EXHAUSTED', retryAfterMs: 7000, message: 'the backend answered RESOURCE_EXHAUSTED: slow down' });
  });

  it('names a deadline as a timeout, and keeps the backend\'s words', () => {
    expect(classifyGrpc(4, 'Deadline exceeded', undefined, undefined)).toMatchObject({ kind: 'retryable', failure: 'timeout', backendMessage: 'Deadline exceeded' });
    expect(classifyGrpc(3, 'bad field', undefined, undefined)).toMatchObject({ kind: 'permanent', grpcStatus: 'INVALID_ARGUMENT', message: 'the backend answered INVALID_ARGUMENT: bad field' });
  });

  it('reads a partial success in an OK answer, and none in an empty one', () => {
    const body = exportResponse('logs', 'protobuf', { rejected: 3, errorMessage: 'three too old' }).body as Buffer;
    expect(classifyGrpc(0, '', undefined, body)).toEqual({ kind: 'success', status: 200, partial: { rejected: 3, message: 'three too old' } });
    expect(classifyGrpc(0, '', undefined, Buffer.alloc(0))).toEqual({ kind: 'success', status: 200 });
  });
});

describe('retryDelayMs', () => {
  it('reads the RetryInfo of a Status, and nothing from one without or from garbage', () => {
    expect(retryDelayMs(withRetryInfo(5))).toBe(5000);
    expect(retryDelayMs(statusProtobuf({ code: 14, message: 'down' }))).toBeUndefined();
    expect(retryDelayMs(Buffer.from([0x1a, 0xff, 0x01]))).toBeUndefined();
  });
});

describe('parseGrpcEndpoint', () => {
  it('reads host:port, and http:// or https:// before it as the Collector does', () => {
    expect(parseGrpcEndpoint('tempo:4317')).toEqual({ target: 'tempo:4317', tls: undefined });
    expect(parseGrpcEndpoint('http://tempo:4317')).toEqual({ target: 'tempo:4317', tls: false });
    expect(parseGrpcEndpoint('https://[::1]:4317/')).toEqual({ target: '[::1]:4317', tls: true });
    expect(parseGrpcEndpoint('tempo')).toBeUndefined();
    expect(parseGrpcEndpoint('http://tempo:4317/v1/traces')).toBeUndefined();
  });
});
