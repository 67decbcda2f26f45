// The pushes the sending queue holds: a frame of PushEncoder's (a PushRequest in a Snappy block),
// or a PushRequest uncompressed (merged by mergePushes, or queued by an otelgate before this one).
// Read back: as Loki's protobuf body, merged into one push as Loki wants it (one stream per label
// set, its entries in time order), or read whole for Loki's JSON form. Merging reads only what it
// needs (each stream's labels, each entry's bytes and time) and writes the entries again by
// copying their bytes.
import snappyjs from 'snappyjs';
import { Writer } from '../../otlp/protobuf/writer.js';
import { Reader, WIRE_LEN } from '../../otlp/wire.js';
import { snappyBlock } from '../helper/snappy.js';
import { FRAME, frameBlocks, joinBlocks } from '../helper/snappy-writer.js';
import type { LokiEntry, LokiStream } from './push.js';

const STREAM = (1 << 3) | WIRE_LEN;
const LABELS = (1 << 3) | WIRE_LEN;
const ENTRY = (2 << 3) | WIRE_LEN;
const TIMESTAMP = (1 << 3) | WIRE_LEN;
const LINE = (2 << 3) | WIRE_LEN;
const METADATA = (3 << 3) | WIRE_LEN;
const NAME = (1 << 3) | WIRE_LEN;
const VALUE = (2 << 3) | WIRE_LEN;
const SECONDS = 1 << 3;
const NANOS = 2 << 3;

interface EntryBytes {
  bytes: Buffer;
  seconds: number;
  nanos: number;
}

interface Group {
  labels: Buffer;
  entries: EntryBytes[];
}

const writer = new Writer();

function skip(r: Reader, tag: number): void {
  const wire = tag & 7;
  if (wire === 0) r.varint();
  else if (wire === 1) r.pos += 8;
  else if (wire === 5) r.pos += 4;
  else r.pos = r.delimited();
}

/** Calls `field(tag, end)` with pos at the start of each length-delimited field of the message ending at `end`; skips the others. */
function fields(r: Reader, end: number, field: (tag: number, end: number) => void): void {
  while (r.more(end)) {
    const tag = r.varint();
    if ((tag & 7) !== WIRE_LEN) {
      skip(r, tag);
      continue;
    }
    const fieldEnd = r.delimited();
    field(tag, fieldEnd);
    r.pos = fieldEnd;
  }
}

/** A google.protobuf.Timestamp ending at `end`: seconds and nanos. */
function readTime(r: Reader, end: number, into: { seconds: number; nanos: number }): void {
  while (r.more(end)) {
    const tag = r.varint();
    if (tag === SECONDS) into.seconds = r.varint();
    else if (tag === NANOS) into.nanos = r.varint();
    else skip(r, tag);
  }
}

function forEachPayload(payloads: readonly Uint8Array[], stream: (r: Reader, end: number) => void): void {
  for (const payload of payloads) {
    const buf = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
    const r = new Reader(buf, 0, buf.length);
    fields(r, buf.length, (tag, end) => {
      if (tag === STREAM) stream(r, end);
    });
  }
}

const byTime = (a: EntryBytes, b: EntryBytes): number => a.seconds - b.seconds || a.nanos - b.nanos;

/** Several queued PushRequests as one: the streams of one label set joined, their entries in time order (equal times in the order they came). */
export function mergePushes(payloads: readonly Uint8Array[]): Buffer {
  const groups = new Map<string, Group>();
  forEachPayload(payloads, (r, end) => {
    let labels: Buffer = Buffer.alloc(0);
    const entries: EntryBytes[] = [];
    fields(r, end, (tag, fieldEnd) => {
      if (tag === LABELS) labels = r.buf.subarray(r.pos, fieldEnd);
      else if (tag === ENTRY) {
        const entry: EntryBytes = { bytes: r.buf.subarray(r.pos, fieldEnd), seconds: 0, nanos: 0 };
        fields(r, fieldEnd, (inner, timeEnd) => {
          if (inner === TIMESTAMP) readTime(r, timeEnd, entry);
        });
        entries.push(entry);
      }
    });
    const key = labels.toString('latin1');
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { labels, entries });
    else for (const entry of entries) group.entries.push(entry);
  });
  const w = writer;
  w.reset();
  for (const { labels, entries } of groups.values()) {
    entries.sort(byTime);
    const at = w.begin(1);
    w.tag(1, WIRE_LEN);
    w.bytes(labels);
    for (const { bytes } of entries) {
      w.tag(2, WIRE_LEN);
      w.bytes(bytes);
    }
    w.end(at);
  }
  return w.finish();
}

/** A label set as streams.ts writes it: {name="value", …}, values JSON-escaped. */
function labelPairs(text: string): (readonly [string, string])[] {
  return [...text.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)=("(?:[^"\\]|\\.)*")/g)].map((m) => [m[1] as string, JSON.parse(m[2] as string) as string] as const);
}

function readEntry(r: Reader, end: number): LokiEntry {
  const time = { seconds: 0, nanos: 0 };
  let line = '';
  const metadata: string[] = [];
  fields(r, end, (tag, fieldEnd) => {
    if (tag === TIMESTAMP) readTime(r, fieldEnd, time);
    else if (tag === LINE) line = r.buf.toString('utf8', r.pos, fieldEnd);
    else if (tag === METADATA) {
      let name = '';
      let value = '';
      fields(r, fieldEnd, (pair, pairEnd) => {
        if (pair === NAME) name = r.buf.toString('utf8', r.pos, pairEnd);
        else if (pair === VALUE) value = r.buf.toString('utf8', r.pos, pairEnd);
      });
      metadata.push(name, value);
    }
  });
  return { timeUnixNano: BigInt(time.seconds) * 1_000_000_000n + BigInt(time.nanos), line, metadata };
}

/** The streams of queued PushRequests, merged as mergePushes merges them: what Loki's JSON form of the push holds. */
export function readPushes(payloads: readonly Uint8Array[]): LokiStream[] {
  const streams: LokiStream[] = [];
  forEachPayload(payloads.length === 1 ? payloads : [mergePushes(payloads)], (r, end) => {
    let labels = '';
    const entries: LokiEntry[] = [];
    fields(r, end, (tag, fieldEnd) => {
      if (tag === LABELS) labels = r.buf.toString('utf8', r.pos, fieldEnd);
      else if (tag === ENTRY) entries.push(readEntry(r, fieldEnd));
    });
    streams.push({ labels, pairs: labelPairs(labels), entries });
  });
  return streams;
}

const isFrame = (payload: Uint8Array): boolean => payload.length > 0 && payload[0] === FRAME;

/** A queued push as Loki's protobuf body: a frame's block as it is, a PushRequest compressed. */
export function protobufBody(payload: Uint8Array): Buffer {
  return isFrame(payload) ? joinBlocks(frameBlocks(payload)) : snappyBlock(payload);
}

/** A queued push as its PushRequest, uncompressed. */
export function pushRequestOf(payload: Uint8Array): Uint8Array {
  return isFrame(payload) ? snappyjs.uncompress(protobufBody(payload)) : payload;
}
