// The classifier, one table: every status and every kind of failure, with what it must come to.
import protobuf from 'protobufjs';
import { errors as undiciErrors } from 'undici';
import { describe, expect, it } from 'vitest';
import { classify, type AttemptResponse } from '../../../src/exporters/helper/classify.js';
import type { SendOutcome } from '../../../src/exporters/helper/outcome.js';
import { exportResponse } from '../../../src/otlp/response.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');

function answer(status: number, extra: Partial<AttemptResponse> = {}): SendOutcome {
  return classify({ response: { status, body: Buffer.alloc(0), ...extra } }, NOW);
}

/** A google.rpc.Status as the OTLP spec has backends answer a 4xx or 5xx. */
function rpcStatus(code: number, message: string): Buffer {
  const w = protobuf.Writer.create();
  w.uint32((1 << 3) | 0).int32(code);
  w.uint32((2 << 3) | 2).string(message);
  // details: one google.protobuf.Any, which the message is read past.
  w.uint32((3 << 3) | 2).fork().uint32((1 << 3) | 2).string('type.googleapis.com/google.rpc.BadRequest').uint32((2 << 3) | 2).bytes(Buffer.from([1, 2, 3])).ldelim();
  return Buffer.from(w.finish());
}

describe('classify: statuses', () => {
  // [status, kind]: the Collector's otlphttp exporter (isRetryableStatusCode) and the OTLP spec.
  const TABLE: [number, SendOutcome['kind']][] = [
    [200, 'success'],
    [201, 'success'],
    [202, 'success'],
    [204, 'success'],
    [206, 'success'],
    [299, 'success'],
    [300, 'permanent'],
    [301, 'permanent'],
    [302, 'permanent'],
    [304, 'permanent'],
    [307, 'permanent'],
    [308, 'permanent'],
    [400, 'permanent'],
    [401, 'permanent'],
    [403, 'permanent'],
    [404, 'permanent'],
    [405, 'permanent'],
    [408, 'permanent'],
    [409, 'permanent'],
    [413, 'permanent'],
    [415, 'permanent'],
    [422, 'permanent'],
    [429, 'retryable'],
    [499, 'permanent'],
    [500, 'permanent'],
    [501, 'permanent'],
    [502, 'retryable'],
    [503, 'retryable'],
    [504, 'retryable'],
    [505, 'permanent'],
    [507, 'permanent'],
    [511, 'permanent'],
    [599, 'permanent'],
  ];

  it.each(TABLE)('%i is %s', (status, kind) => {
    const outcome = answer(status);
    expect(outcome.kind).toBe(kind);
    if (outcome.kind === 'success') expect(outcome).toEqual({ kind: 'success', status });
    else expect(outcome).toMatchObject({ failure: 'http_status', status });
  });

  it('sorts every status from 200 to 599 by the same rule', () => {
    const counts = { success: 0, retryable: 0, permanent: 0 };
    for (let status = 200; status <= 599; status++) counts[answer(status).kind]++;
    expect(counts).toEqual({ success: 100, retryable: 4, permanent: 296 });
  });

  it('names the status in the message, with its reason phrase when it has one', () => {
    expect(answer(400)).toEqual({ kind: 'permanent', failure: 'http_status', status: 400, message: 'the backend answered 400 Bad Request' });
    expect(answer(599)).toEqual({ kind: 'permanent', failure: 'http_status', status: 599, message: 'the backend answered 599' });
  });
});

describe('classify: Retry-After', () => {
  const TABLE: [number, string, number | undefined][] = [
    [429, '3', 3000],
    [503, '3', 3000],
    [429, ' 120 ', 120_000],
    [429, '0', 0],
    [503, 'Sun, 01 Mar 2026 12:00:10 GMT', 10_000],
    [429, 'Sun, 01 Mar 2026 11:59:00 GMT', 0],
    // Go's strconv.Atoi and time.RFC1123 read neither of these, so the Collector ignores them.
    [429, '1.5', undefined],
    [429, 'soon', undefined],
    [429, '2026-03-01T12:00:10Z', undefined],
    [429, '', undefined],
    // The spec's throttling statuses are 429 and 503: the Collector ignores Retry-After on 502 and 504.
    [502, '3', undefined],
    [504, '3', undefined],
    [500, '3', undefined],
  ];

  it.each(TABLE)('%i with Retry-After %j waits %s ms', (status, retryAfter, expected) => {
    const outcome = answer(status, { retryAfter });
    expect(outcome.kind).not.toBe('success');
    expect(outcome.kind === 'success' ? 'success' : outcome.retryAfterMs).toBe(expected);
  });
});

describe('classify: the backend message of a refusal', () => {
  it('reads google.rpc.Status from a protobuf body', () => {
    expect(answer(400, { contentType: 'application/x-protobuf', body: rpcStatus(3, 'resource attribute service.name is required') })).toEqual({
      kind: 'permanent',
      failure: 'http_status',
      status: 400,
      backendMessage: 'resource attribute service.name is required',
      message: 'the backend answered 400 Bad Request: resource attribute service.name is required',
    });
  });

  it('reads the message of a JSON Status, or the error field other backends use, or the whole JSON', () => {
    const json = (text: string) => answer(503, { contentType: 'application/json; charset=utf-8', body: Buffer.from(text) });
    expect(json('{"code":14,"message":"ingester unavailable","details":[]}')).toMatchObject({ backendMessage: 'ingester unavailable', kind: 'retryable' });
    expect(json('{"error":"too many outstanding requests"}')).toMatchObject({ backendMessage: 'too many outstanding requests' });
    expect(json('{"status":"error"}')).toMatchObject({ backendMessage: '{"status":"error"}' });
    expect(json('not json')).toMatchObject({ backendMessage: 'not json' });
  });

  it('reads other bodies as text on one line, bounded', () => {
    expect(answer(400, { contentType: 'text/plain', body: Buffer.from('entry for stream has timestamp too old\n\tsee limits\r\n') })).toMatchObject({
      backendMessage: 'entry for stream has timestamp too old see limits',
    });
    const page = `<html>${'x'.repeat(5000)}</html>`;
    const outcome = answer(502, { contentType: 'text/html', body: Buffer.from(page) });
    expect(outcome).toMatchObject({ backendMessage: `<html>${'x'.repeat(506)}… (4501 more characters)` });
  });

  it('says nothing of an empty body, and reads a protobuf body that is no Status as text', () => {
    expect(answer(404, { contentType: 'application/x-protobuf' })).not.toHaveProperty('backendMessage');
    expect(answer(404, { contentType: 'application/x-protobuf', body: Buffer.from('404 page not found') })).toMatchObject({ backendMessage: '404 page not found' });
  });
});

describe('classify: partial success in a 2xx', () => {
  const SIGNALS = ['logs', 'traces', 'metrics'] as const;

  it.each(SIGNALS)('reads %s partial success in protobuf and JSON, as the receiver writes it', (signal) => {
    for (const encoding of ['protobuf', 'json'] as const) {
      const { contentType, body } = exportResponse(signal, encoding, { rejected: 7, errorMessage: '7 records had no timestamp' });
      expect(answer(200, { contentType, body: Buffer.from(body) })).toEqual({ kind: 'success', status: 200, partial: { rejected: 7, message: '7 records had no timestamp' } });
    }
  });

  it('takes a full success for one: empty body, {}, an empty response, zero rejected and no message', () => {
    for (const [contentType, body] of [
      ['application/x-protobuf', Buffer.alloc(0)],
      ['application/json', Buffer.from('{}')],
      ['application/json', Buffer.from('{"partialSuccess":{}}')],
      ['application/json', Buffer.from('{"partialSuccess":{"rejectedSpans":"0","errorMessage":""}}')],
      ['application/x-protobuf', Buffer.from([0x0a, 0x00])],
    ] as const) {
      expect(answer(200, { contentType, body })).toEqual({ kind: 'success', status: 200 });
    }
  });

  it('reads protojson\'s other spellings: snake_case names and counts as numbers', () => {
    const body = Buffer.from('{"partial_success":{"rejected_data_points":12,"error_message":"out of order"}}');
    expect(answer(200, { contentType: 'application/json', body })).toEqual({ kind: 'success', status: 200, partial: { rejected: 12, message: 'out of order' } });
  });

  it('reports a message with no count as a partial success of 0 rejected', () => {
    const { contentType, body } = exportResponse('traces', 'protobuf', { rejected: 0, errorMessage: 'spans were sampled' });
    expect(answer(200, { contentType, body: Buffer.from(body) })).toEqual({ kind: 'success', status: 200, partial: { rejected: 0, message: 'spans were sampled' } });
  });

  it('keeps a 2xx a success when its body cannot be read, and says why', () => {
    expect(answer(200, { contentType: 'application/x-protobuf', body: Buffer.from([0x0a, 0x05, 0x08]) })).toEqual({
      kind: 'success',
      status: 200,
      unreadableBody: 'the protobuf body could not be parsed: length-delimited field runs past its message',
    });
    expect(answer(200, { contentType: 'application/json', body: Buffer.from('{"partialSuccess":') })).toMatchObject({ kind: 'success', unreadableBody: expect.stringMatching(/^the JSON body could not be parsed: /) });
    expect(answer(200, { contentType: 'application/json', body: Buffer.from('{"partialSuccess":{"rejectedLogRecords":-1}}') })).toEqual({
      kind: 'success',
      status: 200,
      unreadableBody: 'partialSuccess.rejectedLogRecords is not a count',
    });
  });

  it('ignores the body of another content type, as the Collector does', () => {
    expect(answer(200, { contentType: 'text/plain', body: Buffer.from('OK') })).toEqual({ kind: 'success', status: 200 });
    expect(answer(204)).toEqual({ kind: 'success', status: 204 });
  });
});

describe('classify: failures before an answer', () => {
  const coded = (code: string, message = code): Error => Object.assign(new Error(message), { code });
  const TABLE: [string, unknown, SendOutcome['kind'], string][] = [
    ['ECONNREFUSED', coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1'), 'retryable', 'connection_refused'],
    ['ECONNRESET', coded('ECONNRESET', 'read ECONNRESET'), 'retryable', 'connection_reset'],
    ['EPIPE', coded('EPIPE'), 'retryable', 'connection_reset'],
    ['undici SocketError', new undiciErrors.SocketError('other side closed'), 'retryable', 'connection_reset'],
    ['undici ClientClosedError', new undiciErrors.ClientClosedError(), 'retryable', 'connection_reset'],
    ['ETIMEDOUT', coded('ETIMEDOUT'), 'retryable', 'timeout'],
    ['undici ConnectTimeoutError', new undiciErrors.ConnectTimeoutError(), 'retryable', 'timeout'],
    ['undici HeadersTimeoutError', new undiciErrors.HeadersTimeoutError(), 'retryable', 'timeout'],
    ['undici BodyTimeoutError', new undiciErrors.BodyTimeoutError(), 'retryable', 'timeout'],
    ['the sender\'s own timeout', new DOMException('no complete answer within timeout 30s', 'TimeoutError'), 'retryable', 'timeout'],
    ['ENOTFOUND', coded('ENOTFOUND', 'getaddrinfo ENOTFOUND backend.invalid'), 'retryable', 'dns'],
    ['EAI_AGAIN', coded('EAI_AGAIN'), 'retryable', 'dns'],
    ['an unknown CA', coded('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'), 'retryable', 'tls'],
    ['a self-signed certificate', coded('DEPTH_ZERO_SELF_SIGNED_CERT'), 'retryable', 'tls'],
    ['an expired certificate', coded('CERT_HAS_EXPIRED'), 'retryable', 'tls'],
    ['a host name mismatch', coded('ERR_TLS_CERT_ALTNAME_INVALID'), 'retryable', 'tls'],
    ['TLS spoken to plain HTTP', coded('ERR_SSL_WRONG_VERSION_NUMBER'), 'retryable', 'tls'],
    ['a refused tunnel', new undiciErrors.RequestAbortedError('Proxy response (403) !== 200 when HTTP Tunneling'), 'retryable', 'proxy'],
    ['proxy authentication', new undiciErrors.InvalidArgumentError('Proxy Authentication Required (407)'), 'retryable', 'proxy'],
    ['shutdown', new DOMException('the exporter is shutting down', 'AbortError'), 'retryable', 'aborted'],
    ['EHOSTUNREACH', coded('EHOSTUNREACH'), 'retryable', 'network'],
    ['an error without a code', new Error('something broke'), 'retryable', 'network'],
    ['a thrown string', 'something broke', 'retryable', 'network'],
    ['a wrapped cause', new TypeError('fetch failed', { cause: coded('ECONNREFUSED') }), 'retryable', 'connection_refused'],
    ['an invalid header value', new undiciErrors.InvalidArgumentError('invalid x-scope-orgid header'), 'permanent', 'invalid_request'],
    ['an invalid URL', coded('ERR_INVALID_URL', 'Invalid URL'), 'permanent', 'invalid_request'],
  ];

  it.each(TABLE)('%s', (_name, error, kind, failure) => {
    const outcome = classify({ error }, NOW);
    expect(outcome).toMatchObject({ kind, failure });
    expect(outcome).not.toHaveProperty('status');
    expect(outcome).not.toHaveProperty('retryAfterMs');
  });

  it('says what happened and what the error said', () => {
    expect(classify({ error: coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1') }, NOW)).toEqual({
      kind: 'retryable',
      failure: 'connection_refused',
      message: 'connection refused: connect ECONNREFUSED 127.0.0.1:1',
    });
  });
});
