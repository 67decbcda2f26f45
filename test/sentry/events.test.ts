// Error and message events → log rows, on hand-made events: what other SDKs and older versions
// send (tags as pairs, ISO times, Python and Java frames, logentry), and the edges of each field.
import { describe, expect, it } from 'vitest';
import type { LogRow } from '../../src/model/logs.js';
import { RecordBudget } from '../../src/otlp/result.js';
import { decodeSentryEnvelope, decodeSentryStore } from '../../src/sentry/decode.js';
import { envelope } from '../helpers/sentry.js';

const ARRIVAL = 1_800_000_000_000_000_000n;

function eventRow(event: Record<string, unknown>, header: Record<string, unknown> = {}): LogRow {
  const decoded = decodeSentryEnvelope(envelope(header, { header: { type: 'event' }, payload: event }), ARRIVAL, new RecordBudget(10));
  expect([decoded.skipped, decoded.unreadable, decoded.logs.length]).toEqual([0, undefined, 1]);
  return decoded.logs[0] as LogRow;
}

const plain = (attributes: object): Record<string, unknown> => ({ ...attributes });

describe('times', () => {
  it.each([
    ['seconds with a fraction, exactly', 1_700_000_000.123456, 1_700_000_000_123_456_000n],
    ['the SDK timestamps of testdata, exactly', 1_795_736_574.5935552, 1_795_736_574_593_555_200n],
    ['whole seconds', 1_700_000_000, 1_700_000_000_000_000_000n],
    ['seconds in a string', '1700000000.5', 1_700_000_000_500_000_000n],
    ['ISO 8601 with Z', '2026-11-22T06:00:00.123456Z', 1_795_327_200_123_456_000n],
    ['ISO 8601 with an offset and nanoseconds', '2026-11-22T07:00:00.123456789+01:00', 1_795_327_200_123_456_789n],
    ['ISO 8601 without a zone (UTC, as Python sends it)', '2026-11-22T06:00:00', 1_795_327_200_000_000_000n],
    // A number is seconds whatever its size: a time in milliseconds is far in the future, not guessed.
    ['a large number, still seconds', 17_000_000_000, 17_000_000_000_000_000_000n],
  ])('%s', (_name, timestamp, expected) => {
    expect(eventRow({ timestamp }).timeUnixNano).toBe(expected);
  });

  it.each([['absent', undefined], ['negative', -5], ['zero', 0], ['not a time', 'yesterday'], ['an object', { s: 1 }], ['NaN text', 'NaN']])('%s: the arrival', (_name, timestamp) => {
    const row = eventRow({ timestamp });
    expect([row.timeUnixNano, row.observedTimeUnixNano]).toEqual([ARRIVAL, ARRIVAL]);
  });
});

describe('severity', () => {
  it.each([
    ['fatal', 21],
    ['error', 17],
    ['warning', 13],
    ['info', 9],
    ['log', 9],
    ['debug', 5],
    ['WARNING', 13],
    ['chatty', 0],
  ])('level %s is %i, its text the level', (level, number) => {
    const row = eventRow({ level, message: 'm' });
    expect([row.severityText, row.severityNumber]).toEqual([level, number]);
  });

  it('no level is an error, as Sentry files it', () => {
    const row = eventRow({ message: 'm' });
    expect([row.severityText, row.severityNumber]).toEqual(['error', 17]);
  });
});

describe('body', () => {
  it.each([
    ['message', { message: 'plain' }, 'plain'],
    ['message as the older {formatted} object', { message: { formatted: 'formatted text', message: 'template %s' } }, 'formatted text'],
    ['logentry.formatted', { logentry: { formatted: 'from logentry', message: 'from %s' } }, 'from logentry'],
    ['logentry.message when not formatted', { logentry: { message: 'template %s', params: ['x'] } }, 'template %s'],
    ['the message before the exception', { message: 'failed to charge', exception: { values: [{ type: 'ValueError', value: 'bad' }] } }, 'failed to charge'],
    ['Type: value of the last exception', { exception: { values: [{ type: 'KeyError', value: 'inner' }, { type: 'ValueError', value: 'outer' }] } }, 'ValueError: outer'],
    ['the type alone', { exception: { values: [{ type: 'StopIteration' }] } }, 'StopIteration'],
    ['the value alone', { exception: { values: [{ value: 'no type' }] } }, 'no type'],
    ['the bare list of older SDKs', { exception: [{ type: 'E', value: 'v' }] }, 'E: v'],
    ['nothing: no body', { extra: { a: 1 } }, null],
  ])('%s', (_name, event, body) => {
    expect(eventRow(event).body).toBe(body);
  });
});

describe('attributes', () => {
  it('tags as an object: each an attribute, as text; service.name goes to the resource', () => {
    const row = eventRow({ tags: { team: 'payments', shard: 7, canary: true, none: null, nested: { a: 1 }, 'service.name': 'api' }, server_name: 'web-1' });
    expect(plain(row.attributes)).toEqual({ team: 'payments', shard: '7', canary: 'true' });
    expect(plain(row.resource.attributes)).toEqual({ 'service.name': 'api', 'host.name': 'web-1' });
  });

  it('tags as a list of pairs, as some SDKs send them', () => {
    const row = eventRow({ tags: [['team', 'payments'], ['service.name', 'billing'], ['odd'], 'not a pair', [1, 'x'], ['level', 'tag level']] });
    expect(plain(row.attributes)).toEqual({ team: 'payments', level: 'tag level' });
    expect(plain(row.resource.attributes)).toEqual({ 'service.name': 'billing' });
  });

  it('the service: the service.name tag, else server_name, else unknown_service', () => {
    expect(eventRow({ server_name: 'web-1' }).resource.attributes['service.name']).toBe('web-1');
    expect(plain(eventRow({}).resource.attributes)).toEqual({ 'service.name': 'unknown_service' });
    expect(plain(eventRow({ release: 'r@1', environment: 'prod', server_name: '' }).resource.attributes)).toEqual({ 'service.name': 'unknown_service', 'service.version': 'r@1', 'deployment.environment.name': 'prod' });
  });

  it('rows of the same service share one resource; the scope is the SDK, else the envelope header’s', () => {
    const body = envelope(
      { sdk: { name: 'sentry.python', version: '2.40.0' } },
      { header: { type: 'event' }, payload: { server_name: 'a', message: '1' } },
      { header: { type: 'event' }, payload: { server_name: 'a', message: '2', sdk: { name: 'sentry.python.django', version: '2.41.0' } } },
      { header: { type: 'event' }, payload: { server_name: 'b', message: '3' } },
    );
    const [one, two, three] = decodeSentryEnvelope(body, ARRIVAL, new RecordBudget(10)).logs as [LogRow, LogRow, LogRow];
    expect(one.resource).toBe(two.resource);
    expect(one.resource).not.toBe(three.resource);
    expect([one.scope.name, one.scope.version, two.scope.name, two.scope.version]).toEqual(['sentry.python', '2.40.0', 'sentry.python.django', '2.41.0']);
    expect(one.scope).toBe(three.scope);
    expect(plain(two.attributes)).toEqual({ 'sentry.sdk.name': 'sentry.python.django', 'sentry.sdk.version': '2.41.0' });
  });

  it('user: id (as text), email, username (else name), ip_address as client.address unless {{auto}}', () => {
    expect(plain(eventRow({ user: { id: 42, email: 'a@b.c', username: 'ada', name: 'Ada L', ip_address: '10.0.0.1', geo: { city: 'X' } } }).attributes)).toEqual({ 'user.id': '42', 'user.email': 'a@b.c', 'user.name': 'ada', 'client.address': '10.0.0.1' });
    expect(plain(eventRow({ user: { name: 'Ada L', ip_address: '{{auto}}' } }).attributes)).toEqual({ 'user.name': 'Ada L' });
    expect(plain(eventRow({ user: 'not an object' }).attributes)).toEqual({});
  });

  it('request: method and url.full, the query joined on when sent apart (Python)', () => {
    expect(plain(eventRow({ request: { method: 'GET', url: 'https://shop.example/cart', query_string: 'id=7' } }).attributes)).toEqual({ 'http.request.method': 'GET', 'url.full': 'https://shop.example/cart?id=7' });
    expect(plain(eventRow({ request: { url: 'https://shop.example/cart?id=7', query_string: 'id=7' } }).attributes)).toEqual({ 'url.full': 'https://shop.example/cart?id=7' });
  });

  it('event id, platform, SDK, transaction and logger; a tag of the same name gives way', () => {
    const row = eventRow({
      event_id: '9EC79C33-EC99-42AB-8353-589FCB2E04DC',
      platform: 'python',
      sdk: { name: 'sentry.python', version: '2.40.0' },
      transaction: '/cart/{id}',
      logger: 'shop.cart',
      tags: { 'sentry.platform': 'tag', 'user.id': 'tag' },
      user: { id: 'u1' },
    });
    expect(plain(row.attributes)).toEqual({
      'sentry.platform': 'python',
      'user.id': 'u1',
      'sentry.event_id': '9ec79c33ec9942ab8353589fcb2e04dc',
      'sentry.sdk.name': 'sentry.python',
      'sentry.sdk.version': '2.40.0',
      'sentry.transaction': '/cart/{id}',
      'sentry.logger': 'shop.cart',
    });
  });

  it('trace and span ids from contexts.trace: lower-case hex of the right length, else none', () => {
    const ids = (trace: unknown) => {
      const row = eventRow({ contexts: { trace } });
      return [row.traceId, row.spanId];
    };
    expect(ids({ trace_id: '5B8EFFF798038103D269B633813FC60C', span_id: 'EEE19B7EC3C1B174' })).toEqual(['5b8efff798038103d269b633813fc60c', 'eee19b7ec3c1b174']);
    expect(ids({ trace_id: '5b8efff798038103', span_id: 'eee19b7ec3c1b174ff' })).toEqual(['', '']);
    expect(ids({ trace_id: '0'.repeat(32), span_id: '0'.repeat(16) })).toEqual(['', '']);
    expect(ids({ trace_id: 'z'.repeat(32), span_id: 42 })).toEqual(['', '']);
    expect(ids('nope')).toEqual(['', '']);
  });
});

describe('exception.stacktrace, as each language prints it', () => {
  const frame = (f: Record<string, unknown>) => ({ in_app: true, ...f });

  it('JavaScript: newest frame first, each cause indented under the error it caused, as Node shows it', () => {
    const row = eventRow({
      platform: 'javascript',
      exception: {
        values: [
          { type: 'TypeError', value: 'socket closed', stacktrace: { frames: [frame({ function: 'main', filename: 'app:///main.js', lineno: 1, colno: 1 }), frame({ function: 'connect', abs_path: 'https://shop.example/app.js', filename: 'app.js', lineno: 9, colno: 3 })] } },
          { type: 'RangeError', value: 'retry failed', stacktrace: { frames: [frame({ function: '?', filename: 'app:///main.js', lineno: 2 }), frame({ filename: 'app:///retry.js', lineno: 5, colno: 7 })] } },
          { type: 'Error', value: 'payment failed', stacktrace: { frames: [frame({ function: 'Cart.pay', filename: 'app:///cart.js', lineno: 30, colno: 11 }), frame({})] } },
        ],
      },
    });
    expect(row.attributes['exception.stacktrace']).toBe(
      [
        'Error: payment failed',
        '    at <anonymous>',
        '    at Cart.pay (app:///cart.js:30:11) {',
        '  [cause]: RangeError: retry failed',
        '      at app:///retry.js:5:7',
        '      at app:///main.js:2 {',
        '    [cause]: TypeError: socket closed',
        '        at connect (https://shop.example/app.js:9:3)',
        '        at main (app:///main.js:1:1)',
        '  }',
        '}',
      ].join('\n'),
    );
    expect([row.attributes['exception.type'], row.attributes['exception.message']]).toEqual(['Error', 'payment failed']);
  });

  it('Python: a traceback, oldest frame first, the cause first and tied by how it was raised; types qualified by their module', () => {
    const row = eventRow({
      platform: 'python',
      exception: {
        values: [
          {
            type: 'OSError',
            value: 'socket closed',
            module: 'builtins',
            mechanism: { type: 'chained', source: '__context__', exception_id: 2, parent_id: 1 },
            stacktrace: { frames: [frame({ function: 'connect', module: 'shop.net', filename: 'shop/net.py', abs_path: '/app/shop/net.py', lineno: 12, context_line: '        raise OSError("socket closed")' })] },
          },
          {
            type: 'TimeoutError',
            value: '',
            mechanism: { type: 'chained', source: '__cause__', exception_id: 1, parent_id: 0 },
            stacktrace: { frames: [frame({ function: 'retry', filename: 'shop/net.py', lineno: 20 })] },
          },
          {
            type: 'PaymentError',
            value: 'payment failed',
            module: 'shop.errors',
            mechanism: { type: 'django', handled: false, exception_id: 0 },
            stacktrace: { frames: [frame({ function: '<module>', abs_path: '/app/manage.py', lineno: 3, context_line: 'main()' }), frame({ function: 'pay', abs_path: '/app/shop/cart.py', lineno: 40, context_line: '    raise PaymentError("payment failed") from e' })] },
          },
        ],
      },
    });
    expect(row.attributes['exception.stacktrace']).toBe(
      [
        'Traceback (most recent call last):',
        '  File "/app/shop/net.py", line 12, in connect',
        '    raise OSError("socket closed")',
        'OSError: socket closed',
        '',
        'During handling of the above exception, another exception occurred:',
        '',
        'Traceback (most recent call last):',
        '  File "shop/net.py", line 20, in retry',
        'TimeoutError',
        '',
        'The above exception was the direct cause of the following exception:',
        '',
        'Traceback (most recent call last):',
        '  File "/app/manage.py", line 3, in <module>',
        '    main()',
        '  File "/app/shop/cart.py", line 40, in pay',
        '    raise PaymentError("payment failed") from e',
        'shop.errors.PaymentError: payment failed',
      ].join('\n'),
    );
    expect([row.attributes['exception.type'], row.attributes['exception.message'], row.body]).toEqual(['shop.errors.PaymentError', 'payment failed', 'shop.errors.PaymentError: payment failed']);
  });

  it('any other platform: as Java prints a Throwable, newest frame first, then "Caused by:"', () => {
    const row = eventRow({
      platform: 'java',
      exception: {
        values: [
          { type: 'IOException', value: 'socket closed', module: 'java.io', stacktrace: { frames: [frame({ module: 'com.shop.Net', function: 'connect', filename: 'Net.java', lineno: 12 })] } },
          { type: 'IllegalStateException', value: 'payment failed', module: 'java.lang', stacktrace: { frames: [frame({ module: 'com.shop.Main', function: 'main', filename: 'Main.java', lineno: 5 }), frame({ module: 'com.shop.Cart', function: 'pay', abs_path: '/src/com/shop/Cart.java', lineno: 40 }), frame({ function: 'lambda$0' })] } },
        ],
      },
    });
    expect(row.attributes['exception.stacktrace']).toBe(
      [
        'java.lang.IllegalStateException: payment failed',
        '\tat lambda$0(Unknown Source)',
        '\tat com.shop.Cart.pay(Cart.java:40)',
        '\tat com.shop.Main.main(Main.java:5)',
        'Caused by: java.io.IOException: socket closed',
        '\tat com.shop.Net.connect(Net.java:12)',
      ].join('\n'),
    );
  });

  it('a module qualifies a type when it is a dotted name the type does not start with already', () => {
    const type = (value: object) => eventRow({ platform: 'csharp', exception: { values: [{ value: 'v', ...value }] } }).attributes['exception.type'];
    expect(type({ type: 'InvalidOperationException', module: 'System' })).toBe('System.InvalidOperationException');
    expect(type({ type: 'System.InvalidOperationException', module: 'System.Private.CoreLib, Version=8.0.0.0, Culture=neutral' })).toBe('System.InvalidOperationException');
    expect(type({ type: 'System.IO.IOException', module: 'System.IO' })).toBe('System.IO.IOException');
    expect(type({ type: 'ValueError', module: '__main__' })).toBe('ValueError');
    expect(type({ type: '', module: 'shop' })).toBeUndefined();
  });

  it('no frames: the headlines alone', () => {
    const row = eventRow({ platform: 'go', exception: { values: [{ type: '*errors.errorString', value: 'boom' }] } });
    expect(row.attributes['exception.stacktrace']).toBe('*errors.errorString: boom');
  });

  it('a chain longer than 64 keeps its 64 outermost exceptions', () => {
    const values = Array.from({ length: 100 }, (_, i) => ({ type: 'E', value: String(i), stacktrace: { frames: [{ function: 'f', filename: 'a.js', lineno: 1 }] } }));
    const stack = eventRow({ platform: 'node', exception: { values } }).attributes['exception.stacktrace'] as string;
    expect(stack.startsWith('E: 99\n')).toBe(true);
    expect(stack).toContain('[cause]: E: 36\n');
    expect(stack).not.toContain('E: 35');
  });

  it("a message's stack (the JavaScript SDKs' synthetic exception, Python's threads) is code.stacktrace, not an exception", () => {
    const synthetic = eventRow({ platform: 'node', message: 'note', exception: { values: [{ value: 'note', mechanism: { synthetic: true, type: 'generic' }, stacktrace: { frames: [{ function: 'main', filename: 'a.js', lineno: 1, colno: 2 }] } }] } });
    expect(plain(synthetic.attributes)).toEqual({ 'sentry.platform': 'node', 'code.stacktrace': '    at main (a.js:1:2)' });
    expect(synthetic.body).toBe('note');
    const thread = (t: object) => ({ stacktrace: { frames: [{ function: 'f', abs_path: '/app/x.py', lineno: 3 }] }, ...t });
    const threads = eventRow({ platform: 'python', message: 'note', threads: { values: [{ id: 1 }, thread({ id: 2, name: 'other' }), { ...thread({ current: true }), stacktrace: { frames: [{ function: 'handler', abs_path: '/app/y.py', lineno: 9, context_line: '  log.info("x")' }] } }] } });
    expect(threads.attributes['code.stacktrace']).toBe('Traceback (most recent call last):\n  File "/app/y.py", line 9, in handler\n    log.info("x")');
    expect(threads.attributes['exception.stacktrace']).toBeUndefined();
  });
});

describe('the store endpoint: one event as the body', () => {
  it('is one log row; its event_id the answer', () => {
    const body = Buffer.from(JSON.stringify({ event_id: 'fc6d8c0c43fc4630ad850ee518f1b9d0', message: 'from store', level: 'warning', timestamp: '2026-11-22T06:00:00Z', platform: 'python', server_name: 'web-1' }));
    const decoded = decodeSentryStore(body, ARRIVAL, new RecordBudget(10));
    expect([decoded.eventId, decoded.skipped, decoded.unreadable, decoded.spans, { ...decoded.ignored }]).toEqual(['fc6d8c0c43fc4630ad850ee518f1b9d0', 0, undefined, [], {}]);
    expect(decoded.logs[0]).toMatchObject({ body: 'from store', severityText: 'warning', severityNumber: 13, timeUnixNano: 1_795_327_200_000_000_000n });
    expect(decoded.logs[0]?.scope.name).toBe('');
  });

  it('a transaction there is spans', () => {
    const body = Buffer.from(JSON.stringify({ type: 'transaction', transaction: 'GET /', start_timestamp: 1, timestamp: 2, contexts: { trace: { trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16) } } }));
    const decoded = decodeSentryStore(body, ARRIVAL, new RecordBudget(10));
    expect(decoded.spans.map((span) => [span.name, span.startTimeUnixNano, span.endTimeUnixNano])).toEqual([['GET /', 1_000_000_000n, 2_000_000_000n]]);
  });

  it('not JSON, or not an object: one skipped, said why', () => {
    const bad = decodeSentryStore(Buffer.from('{"message":'), ARRIVAL, new RecordBudget(10));
    expect([bad.logs, bad.skipped]).toEqual([[], 1]);
    expect(bad.unreadable).toMatch(/^the body is not JSON: /);
    const list = decodeSentryStore(Buffer.from('[{"message":"x"}]'), ARRIVAL, new RecordBudget(10));
    expect([list.logs, list.skipped, list.unreadable, list.eventId]).toEqual([[], 1, 'the body is not a JSON object', undefined]);
  });
});
