// Golden cases of the simple endpoint's byte reader: each rule it reads from the bytes itself, and
// each case it hands to JSON.parse, with what the answer is and that it is the JSON.parse-based
// decoder's (reference-decode.ts).
import { describe, expect, it } from 'vitest';
import { DecodeAbort, OutOfBudget, RecordBudget, type Decoded, type Reservable } from '../../src/otlp/result.js';
import { decodeSimpleLogs } from '../../src/simple/decode.js';
import { answer, toBytes } from './bodies.js';
import { referenceDecodeSimpleLogs } from './reference-decode.js';

const ARRIVAL = 1_800_000_000_000_000_000n;

/** The reader's answer for `body`, after checking that it is the reference's. */
function read(body: string | Buffer, limit = Number.POSITIVE_INFINITY): Decoded<'logs'> {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const budget = new RecordBudget(limit);
  const referenceBudget = new RecordBudget(limit);
  const decoded = decodeSimpleLogs(bytes, ARRIVAL, budget);
  expect(answer(decoded)).toBe(answer(referenceDecodeSimpleLogs(bytes, ARRIVAL, referenceBudget)));
  expect(budget.counted).toBe(referenceBudget.counted);
  return decoded;
}

const attributes = (decoded: Decoded<'logs'>, row = 0): [string, unknown][] => Object.entries(decoded.rows[row]?.attributes ?? {});
const bodies = (decoded: Decoded<'logs'>): string[] => decoded.rows.map((row) => row.body as string);

describe('the simple JSON reader: values as text', () => {
  it.each([
    ['1e2', '100'],
    ['1.50', '1.5'],
    ['-0', '0'],
    ['0.1', '0.1'],
    ['1E400', 'Infinity'],
    ['9007199254740993', '9007199254740992'],
    ['1e21', '1e+21'],
    ['0.0000001', '1e-7'],
    ['true', 'true'],
    ['false', 'false'],
  ])('a message %s is the text %j, as String() writes the double', (json, text) => {
    expect(bodies(read(`{"message":${json}}`))).toEqual([text]);
  });

  it('writes an object or array message as JSON.stringify does: white space gone, escapes its own, the last of a duplicate', () => {
    const decoded = read('{"message": { "b" : [ 1.0 , "\\u0041\\/" ] , "a" : null, "b": 2, "2": 0 } }');
    expect(bodies(decoded)).toEqual(['{"2":0,"b":2,"a":null}']);
  });

  it('takes a service, level, scope or event of any type as text', () => {
    const [row] = read('{"message":"m","service":12,"level":true,"scope":{"x":[1]},"event":[null]}').rows;
    expect(row).toMatchObject({ severityText: 'true', severityNumber: 0, scope: { name: '{"x":[1]}' }, eventName: '[null]' });
    expect({ ...row?.resource.attributes }).toEqual({ 'service.name': '12' });
  });

  it('reads escapes, surrogate pairs and lone surrogates as JSON.parse does', () => {
    expect(bodies(read('{"message":"\\ud83d\\ude00 \\uD83D \\u00e9\\n\\"\\/ 😀"}'))).toEqual(['😀 \ud83d é\n"/ 😀']);
  });

  it('replaces bytes that are not UTF-8 as TextDecoder does', () => {
    const body = Buffer.concat([Buffer.from('{"message":"a'), Buffer.from([0xff, 0xc3]), Buffer.from('b'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('","context":{"k'), Buffer.from([0xe2, 0x82]), Buffer.from('":"v"}}')]);
    const decoded = read(body);
    expect(bodies(decoded)).toEqual(['a\ufffd\ufffdb\ufffd\ufffd\ufffd']);
    expect(attributes(decoded)).toEqual([['k\ufffd', 'v']]);
  });
});

describe('the simple JSON reader: context', () => {
  it('flattens nested objects to dotted keys, every value a string, arrays as JSON', () => {
    const decoded = read('{"message":"m","context":{"http":{"method":"GET","status":200,"ok":true,"none":null,"tags":["a", 1]},"deep":{"er":{"est":1.50}},"empty":{}}}');
    expect(attributes(decoded)).toEqual([
      ['http.method', 'GET'],
      ['http.status', '200'],
      ['http.ok', 'true'],
      ['http.none', 'null'],
      ['http.tags', '["a",1]'],
      ['deep.er.est', '1.5'],
    ]);
  });

  it('keeps a duplicated key at its first place with its last value, as JSON.parse leaves it', () => {
    const decoded = read('{"message":"m","context":{"a":"1","b":"2","a":{"x":"3"},"c":"4","b":{},"c":"5"}}');
    expect(attributes(decoded)).toEqual([
      ['a.x', '3'],
      ['c', '5'],
    ]);
  });

  it('lists integer-like keys first, in numeric order, at any depth, as JavaScript objects do', () => {
    const decoded = read('{"message":"m","context":{"b":"x","10":{"z":"1","2":"2","01":"3"},"1":"y","a":{"9":"4","x":"5","4294967295":"6","4294967294":"7"}}}');
    expect(attributes(decoded)).toEqual([
      ['1', 'y'],
      ['10.2', '2'],
      ['10.z', '1'],
      ['10.01', '3'],
      ['b', 'x'],
      ['a.9', '4'],
      ['a.4294967294', '7'],
      ['a.x', '5'],
      ['a.4294967295', '6'],
    ]);
  });

  it('keeps __proto__ an ordinary key, as JSON.parse does', () => {
    const decoded = read('{"message":"m","context":{"__proto__":{"polluted":"yes"},"constructor":"c"},"__proto__":{"message":"not this"}}');
    expect(bodies(decoded)).toEqual(['m']);
    expect(attributes(decoded)).toEqual([
      ['__proto__.polluted', 'yes'],
      ['constructor', 'c'],
    ]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('lets a name reached by two paths take its first place and last value', () => {
    expect(attributes(read('{"message":"m","context":{"a.b":"1","x":"2","a":{"b":"3"}}}'))).toEqual([
      ['a.b', '3'],
      ['x', '2'],
    ]);
  });

  it('takes the last context given, and attributes only when context is absent or null', () => {
    expect(attributes(read('{"message":"m","context":{"a":"1"},"attributes":{"b":"2"},"context":{"c":"3"}}'))).toEqual([['c', '3']]);
    expect(attributes(read('{"message":"m","context":{"a":"1"},"attributes":{"b":"2"},"context":null}'))).toEqual([['b', '2']]);
    expect(attributes(read('{"message":"m","context":"not an object","attributes":{"b":"2"}}'))).toEqual([]);
    expect(attributes(read('{"message":"m","context":[{"a":1}]}'))).toEqual([]);
  });

  it('flattens a context nested deeper than it reads alone as JSON.parse-based flattening does', () => {
    const deep = `${'{"d":'.repeat(40)}"x"${'}'.repeat(40)}`;
    expect(attributes(read(`{"message":"m","context":${deep}}`))).toEqual([[Array(40).fill('d').join('.'), 'x']]);
  });

  it('skips a record whose context or message is nested too deep to flatten or stringify, keeping the others', () => {
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const deepArray = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const decoded = read(`[{"message":"kept"},{"message":"x","context":${deep}},{"message":${deepArray}},{"message":"y","context":{"a":${deepArray}}},{"message":"z"}]`);
    expect([bodies(decoded), decoded.skipped]).toEqual([['kept', 'z'], 3]);
  });

  it('reads a deep value it does not use without failing the record', () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const decoded = read(`{"message":${deep},"context":{"a":${deep}},"message":"later","context":{"b":"2"},"unknown":${deep},"body":${deep}}`);
    expect(bodies(decoded)).toEqual(['later']);
    expect(attributes(decoded)).toEqual([['b', '2']]);
  });
});

describe('the simple JSON reader: fields', () => {
  it('takes the last value of a name given twice, then the alias only when the name is absent or null', () => {
    expect(bodies(read('{"message":"a","body":"b","message":"c"}'))).toEqual(['c']);
    expect(bodies(read('{"message":"a","body":"b","message":null}'))).toEqual(['b']);
    expect(bodies(read('{"body":"b","message":0}'))).toEqual(['0']);
    expect(bodies(read('{"mess\\u0061ge":"escaped name"}'))).toEqual(['escaped name']);
  });

  it('looks a level up by name only when it is a string', () => {
    expect(read('{"message":"m","level":" Warn "}').rows[0]).toMatchObject({ severityText: ' Warn ', severityNumber: 13 });
    expect(read('{"message":"m","severity":"error","level":null}').rows[0]).toMatchObject({ severityText: 'error', severityNumber: 17 });
    expect(read('{"message":"m","level":["error"]}').rows[0]).toMatchObject({ severityText: '["error"]', severityNumber: 0 });
  });

  it.each([
    ['"2026-11-22T06:00:00.123456789Z"', 1_795_327_200_123_456_789n],
    ['1795327200.25', 1_795_327_200_250_000_000n],
    ['1795327200123', 1_795_327_200_123_000_000n],
    ['"1795327200"', 1_795_327_200_000_000_000n],
    ['1.7953272e9', 1_795_327_200_000_000_000n],
    ['true', ARRIVAL],
    ['{"t":1795327200}', ARRIVAL],
    ['-5', ARRIVAL],
  ])('a timestamp %s is %d ns', (json, ns) => {
    expect(read(`{"message":"m","timestamp":${json},"time":1795327200}`).rows[0]?.timeUnixNano).toBe(ns);
  });

  it('takes ids as hex in any case, keeping any other text as sent, whatever came before under the same name', () => {
    const [row] = read('{"message":"m","trace_id":"5B8EFFF798038103D269B633813FC60C","span_id":"0123456789abcdef","span_id":1.23456789012345}').rows;
    expect(row).toMatchObject({ traceId: '5b8efff798038103d269b633813fc60c', spanId: '' });
    expect({ ...row?.attributes }).toEqual({ trace_id: '5B8EFFF798038103D269B633813FC60C', span_id: '1.23456789012345' });
    expect(read('{"message":"m","spanId":"0123456789abcdef"}').rows[0]).toMatchObject({ spanId: '0123456789abcdef' });
  });
});

describe('the simple JSON reader: the body', () => {
  it('reads a body after a UTF-8 byte-order mark, and only one', () => {
    expect(bodies(read(toBytes(' {"message":"after a BOM"}', true)))).toEqual(['after a BOM']);
    expect(read(toBytes('\ufeff{"message":"two"}', true))).toMatchObject({ rows: [], skipped: 1, unreadable: expect.stringMatching(/^not JSON: /) });
  });

  it.each(['message=hi level=info', '', '{"message":"m"', '[{"message":"m"},]', '{"message":"m"} {}', '{"message":"\u0001"}', '{"message":01}', '[{"message":"m"}, {"message": tru}]'])(
    'answers %j, which is not JSON, as unreadable in JSON.parse’s words',
    (text) => {
      const decoded = read(text);
      expect(decoded).toMatchObject({ rows: [], skipped: 1 });
      let words = '';
      try {
        JSON.parse(text);
      } catch (error) {
        words = (error as Error).message;
      }
      expect(decoded.unreadable).toBe(`not JSON: ${words}`);
    },
  );

  it('skips an item that is not an object, and one without a message', () => {
    const decoded = read('[{"message":"a"},"text",5,null,[{"message":"nested"}],{"level":"info"},{"message":"b"}]');
    expect([bodies(decoded), decoded.skipped]).toEqual([['a', 'b'], 5]);
  });

  it('stores two records of an array of three whose second has no message, and counts one skipped', () => {
    const decoded = read('[{"message":"a"},{"body":null,"level":"warn"},{"body":"c"}]');
    expect([bodies(decoded), decoded.skipped, decoded.unreadable]).toEqual([['a', 'c'], 1, undefined]);
  });

  it('skips a root that is not an object', () => {
    expect(read('"just text"')).toEqual({ rows: [], skipped: 1 });
  });
});

describe('the simple JSON reader: the record budget', () => {
  it('discards a body with more records than the limit whole, counting none', () => {
    expect(read('[{"message":"a"},{"message":"b"},{"message":"c"}]', 2)).toMatchObject({ rows: [], skipped: 1, tooMany: 2 });
    expect(read('{"message":"a"}', 0)).toMatchObject({ rows: [], skipped: 1, tooMany: 0 });
    expect(bodies(read('[{"message":"a"},{"message":"b"}]', 2))).toEqual(['a', 'b']);
  });

  it('answers a body with too many records that is not JSON further on as unreadable', () => {
    expect(read('[{"message":"a"},{"message":"b"},{"message":"c"},]', 1)).toMatchObject({ rows: [], skipped: 1, unreadable: expect.stringMatching(/^not JSON: /) });
  });

  it('throws the shared budget’s refusal, as before, only for a body that is JSON and within the limit', () => {
    const shared = (bytes: number): Reservable => {
      let left = bytes;
      return { take: (n) => (left >= n ? ((left -= n), true) : false), give: (n) => void (left += n) };
    };
    const decode = (decoder: typeof decodeSimpleLogs, text: string, limit: number) => {
      try {
        return decoder(Buffer.from(text), ARRIVAL, new RecordBudget(limit, shared(250), 100));
      } catch (error) {
        return error instanceof DecodeAbort ? error.name : error;
      }
    };
    const three = '[{"message":"a"},{"message":"b"},{"message":"c"}]';
    for (const [text, limit] of [[three, 10], [three, 3], [three, 2], [`${three.slice(0, -1)},}`, 10], ['[{"message":"a"},{"message":"b"}]', 10]] as const) {
      expect(decode(decodeSimpleLogs, text, limit)).toEqual(decode(referenceDecodeSimpleLogs, text, limit));
    }
    expect(decode(decodeSimpleLogs, three, 10)).toBe(new OutOfBudget('').name);
  });
});
