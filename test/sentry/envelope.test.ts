// The envelope's framing on hand-made bodies: items with and without `length`, lengths that lie,
// envelopes cut short, lines that are not JSON, items that are not stored, the DSN's key.
import { describe, expect, it } from 'vitest';
import { RecordBudget } from '../../src/otlp/result.js';
import { decodeSentryEnvelope, envelopeDsnKey, type SentryDecoded } from '../../src/sentry/decode.js';
import { envelope, golden, payloadBytes } from '../helpers/sentry.js';

const ARRIVAL = 1_800_000_000_000_000_000n;
const decode = (body: Buffer | string): SentryDecoded => decodeSentryEnvelope(Buffer.from(body), ARRIVAL, new RecordBudget(1000));

const event = (message: string, extra: object = {}) => ({ header: { type: 'event' }, payload: { event_id: 'a'.repeat(32), message, timestamp: 1_700_000_000, ...extra } });
const log = (...bodies: string[]) => ({ header: { type: 'log', item_count: bodies.length, content_type: 'application/vnd.sentry.items.log+json' }, payload: { version: 2, items: bodies.map((body) => ({ timestamp: 1_700_000_000, level: 'info', body })) } });

/** What a decode kept, in a form one expectation can hold. */
function summary(decoded: SentryDecoded): { logs: unknown[]; spans: number; skipped: number; unreadable: string | undefined; ignored: object } {
  return { logs: decoded.logs.map((row) => row.body), spans: decoded.spans.length, skipped: decoded.skipped, unreadable: decoded.unreadable, ignored: { ...decoded.ignored } };
}

describe('items', () => {
  it('without length: the payload is the line, the last one may end without a newline', () => {
    expect(summary(decode(envelope({}, event('one'), log('two', 'three'), event('four'))))).toEqual({ logs: ['one', 'two', 'three', 'four'], spans: 0, skipped: 0, unreadable: undefined, ignored: {} });
  });

  it('with length: exactly that many bytes, newlines and all, an optional newline after', () => {
    const pretty = { ...event('pretty'), payload: JSON.stringify({ message: 'pretty' }, null, 2) };
    const body = Buffer.concat([envelope({}, { ...pretty, withLength: true }, { ...event('next'), withLength: true }), Buffer.from('\n')]);
    expect(summary(decode(body)).logs).toEqual(['pretty', 'next']);
    // Without the newline between a payload and the next item header, as the spec allows.
    const tight = Buffer.from(`{}\n{"type":"event","length":17}\n{"message":"one"}{"type":"event"}\n{"message":"two"}`);
    expect(summary(decode(tight))).toMatchObject({ logs: ['one', 'two'], skipped: 0 });
  });

  it('a binary attachment with newlines in it is passed over by its length', () => {
    const bytes = Buffer.from([0x0a, 0x00, 0xff, 0x0a, 0x7b, 0x0a]);
    const body = envelope({}, { header: { type: 'attachment', filename: 'core.bin', content_type: 'application/octet-stream' }, payload: bytes, withLength: true }, event('after'));
    expect(summary(decode(body))).toEqual({ logs: ['after'], spans: 0, skipped: 0, unreadable: undefined, ignored: { attachment: 1 } });
  });

  it('blank lines between items, and \\r\\n line ends, are passed over', () => {
    const body = `{}\r\n{"type":"event"}\r\n{"message":"one"}\r\n\r\n\n{"type":"event"}\n{"message":"two"}\n\n`;
    expect(summary(decode(body))).toMatchObject({ logs: ['one', 'two'], skipped: 0, unreadable: undefined });
  });
});

describe('a length that lies', () => {
  const first = payloadBytes(event('first').payload);

  it('too long, past the end: the payload is read as a line', () => {
    const body = envelope({}, { ...event('first'), header: { type: 'event', length: first.length + 500 } });
    expect(summary(decode(body))).toMatchObject({ logs: ['first'], skipped: 0 });
  });

  it('too long, over the next item to a newline: the payload is read as a line and the next item kept', () => {
    const second = Buffer.from(`\n${JSON.stringify({ type: 'event' })}\n${payloadBytes(event('second').payload).toString()}`);
    const body = Buffer.concat([envelope({}, { ...event('first'), header: { type: 'event', length: first.length + second.length } }), second, Buffer.from('\n')]);
    expect(summary(decode(body))).toMatchObject({ logs: ['first', 'second'], skipped: 0, unreadable: undefined });
  });

  it('too short: the payload is read as a line', () => {
    const body = envelope({}, { ...event('first'), header: { type: 'event', length: 5 } }, event('second'));
    expect(summary(decode(body))).toMatchObject({ logs: ['first', 'second'], skipped: 0 });
    // Shorter by one, so that its bytes end where the line's newline is not.
    const oneShort = envelope({}, { ...event('first'), header: { type: 'event', length: first.length - 1 } }, event('second'));
    expect(summary(decode(oneShort))).toMatchObject({ logs: ['first', 'second'], skipped: 0 });
  });

  it('not a number, or negative: as if absent', () => {
    const body = envelope({}, { ...event('first'), header: { type: 'event', length: '12' } }, { ...event('second'), header: { type: 'event', length: -3 } });
    expect(summary(decode(body))).toMatchObject({ logs: ['first', 'second'], skipped: 0 });
  });

  it('and the line is not the payload either: the item is lost, the reader goes on after its bytes', () => {
    const broken = Buffer.from('{"message":\n"split"');
    const body = envelope({}, { header: { type: 'event' }, payload: broken, withLength: true }, event('after'));
    const decoded = decode(body);
    expect(summary(decoded)).toMatchObject({ logs: ['after'], skipped: 1 });
    expect(decoded.unreadable).toMatch(/^item 1 \(event\): the payload is not JSON/);
  });
});

describe('envelopes cut short or mangled', () => {
  it('cut inside the last item: the items before it are kept, the cut one skipped', () => {
    const whole = envelope({ event_id: 'b'.repeat(32) }, event('one'), log('two', 'three'), { ...event('four'), withLength: true });
    for (const cut of [whole.length - 1, whole.length - 10]) {
      const decoded = decode(whole.subarray(0, cut));
      expect(summary(decoded)).toMatchObject({ logs: ['one', 'two', 'three'], skipped: 1 });
      expect(decoded.unreadable).toMatch(/^item 3 \(event\): the payload is not JSON/);
      expect(decoded.eventId).toBe('b'.repeat(32));
    }
  });

  it('cut inside an item header: the header is lost', () => {
    const whole = envelope({}, event('one'), event('two'));
    const cut = whole.indexOf('{"type"', whole.indexOf('one')) + 4;
    expect(summary(decode(whole.subarray(0, cut)))).toEqual({ logs: ['one'], spans: 0, skipped: 1, unreadable: 'item 2: its header is not a JSON object', ignored: {} });
  });

  it('an item header that is not JSON: it and the line after it are lost, the rest read', () => {
    const body = `{}\n{"type":"event"}\n{"message":"one"}\n{"type": event}\n{"message":"lost"}\n{"type":"event"}\n{"message":"three"}`;
    expect(summary(decode(body))).toEqual({ logs: ['one', 'three'], spans: 0, skipped: 1, unreadable: 'item 2: its header is not a JSON object', ignored: {} });
  });

  it('an item header without a type: lost', () => {
    const body = `{}\n{"length":2}\n{}\n{"type":7}\n{"message":"x"}\n{"type":"event"}\n{"message":"kept"}`;
    expect(summary(decode(body))).toMatchObject({ logs: ['kept'], skipped: 2, unreadable: 'item 1: its header has no type' });
  });

  it('a payload that is not JSON, or not the shape of its type: that item is lost', () => {
    const body = `{}\n{"type":"event"}\n{"message": nope}\n{"type":"event"}\n[1,2]\n{"type":"log"}\n{"items":{}}\n{"type":"span"}\n"text"\n{"type":"transaction"}\nnull\n{"type":"event"}\n{"message":"kept"}`;
    const decoded = decode(body);
    expect(summary(decoded)).toMatchObject({ logs: ['kept'], spans: 0, skipped: 5 });
    expect(decoded.unreadable).toMatch(/^item 1 \(event\): the payload is not JSON: /);
  });

  it('an envelope header that is not JSON: said, and the items are still read', () => {
    expect(summary(decode(`{"event_id": \n{"type":"event"}\n{"message":"one"}`))).toEqual({ logs: ['one'], spans: 0, skipped: 0, unreadable: 'the envelope header is not a JSON object', ignored: {} });
  });

  it('an empty body, or a header alone', () => {
    expect(summary(decode(''))).toEqual({ logs: [], spans: 0, skipped: 0, unreadable: 'the body is empty', ignored: {} });
    expect(summary(decode('{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc"}'))).toEqual({ logs: [], spans: 0, skipped: 0, unreadable: undefined, ignored: {} });
    expect(summary(decode('{}\n'))).toEqual({ logs: [], spans: 0, skipped: 0, unreadable: undefined, ignored: {} });
  });

  it('nothing ever throws on any cut of a real envelope', () => {
    const whole = golden('static/04-transaction.envelope');
    for (let cut = 0; cut <= whole.length; cut += 7) {
      const decoded = decode(whole.subarray(0, cut));
      expect(decoded.spans.length + decoded.skipped).toBeLessThanOrEqual(4);
    }
  });
});

describe('items that are not stored', () => {
  it('an envelope of only such items: counted by type, nothing stored, nothing skipped', () => {
    const items = ['session', 'sessions', 'client_report', 'attachment', 'replay_event', 'replay_recording', 'profile', 'profile_chunk', 'check_in', 'statsd', 'feedback', 'session', 'made_up', 'toString', '__proto__'];
    const body = envelope(
      {},
      ...items.map((type) => ({ header: { type }, payload: type === 'replay_recording' ? Buffer.from([0x78, 0x9c, 0x03]) : { anything: [type] }, withLength: type === 'replay_recording' })),
    );
    const decoded = decode(body);
    expect(summary(decoded)).toEqual({
      logs: [],
      spans: 0,
      skipped: 0,
      unreadable: undefined,
      // A type Sentry does not have is counted as unknown, whatever its name.
      ignored: { session: 2, sessions: 1, client_report: 1, attachment: 1, replay_event: 1, replay_recording: 1, profile: 1, profile_chunk: 1, check_in: 1, statsd: 1, feedback: 1, unknown: 3 },
    });
    expect(decoded.eventId).toBeUndefined();
  });
});

describe('the event id answered to the SDK', () => {
  it("is the envelope header's, else the first event's; a UUID's hyphens are dropped, anything else is none", () => {
    const id = '9ec79c33ec9942ab8353589fcb2e04dc';
    expect(decode(envelope({ event_id: id }, event('x', { event_id: 'c'.repeat(32) }))).eventId).toBe(id);
    expect(decode(envelope({}, log('l'), event('x', { event_id: id.toUpperCase() }), event('y', { event_id: 'c'.repeat(32) }))).eventId).toBe(id);
    expect(decode(envelope({ event_id: '9ec79c33-ec99-42ab-8353-589fcb2e04dc' })).eventId).toBe(id);
    expect(decode(envelope({ event_id: 'not an id' }, event('x', { event_id: 42 }))).eventId).toBeUndefined();
  });
});

describe('envelopeDsnKey', () => {
  it("is the public key of the header's dsn", () => {
    expect(envelopeDsnKey(envelope({ dsn: 'https://otg_abc_DEF@otel.example.com/42', event_id: 'a'.repeat(32) }, event('x')))).toBe('otg_abc_DEF');
    // The old form with a secret: the key is the user part.
    expect(envelopeDsnKey(Buffer.from('{"dsn":"http://public:secret@127.0.0.1:4318/1"}'))).toBe('public');
  });

  it('is undefined without one: no dsn, not a URL, no key, not JSON, a dsn in a later line only', () => {
    for (const body of ['{}', '{"dsn":"not a url"}', '{"dsn":"https://otel.example.com/1"}', '{"dsn":42}', '{"dsn"', '', '[]', `{}\n{"dsn":"https://k@h/1"}`]) {
      expect(envelopeDsnKey(Buffer.from(body))).toBeUndefined();
    }
  });

  it('reads the first 64 KiB at most', () => {
    const padded = (n: number) => Buffer.from(`{"dsn":"https://key@h/1","pad":"${'x'.repeat(n)}"}\n{"type":"event"}\n{}`);
    expect(envelopeDsnKey(padded(60_000))).toBe('key');
    expect(envelopeDsnKey(padded(70_000))).toBeUndefined();
  });
});
