// In-process ceilings, run in their own process on the core otelgate gets: (b) decoding a body
// to rows (otelgate's decoders, and protobufjs for OTLP logs; JSON.parse alone for JSON), (c) inserting those rows into
// node:sqlite with the store's schema and indexes. No HTTP, no pipeline: what otelgate can at
// best approach. Usage: node ceilings.mjs '<json options>'; prints one JSON line.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { decodeOtlp } from '../dist/otlp/decode.js';
import { decodeSimpleLogs } from '../dist/simple/decode.js';
import { openForWriting } from '../dist/exporters/store/database.js';
import { Writer } from '../dist/exporters/store/writer.js';
import { protobufjsLogRows } from './protobufjs-rows.mjs';
import { decodeSimpleLogsBefore } from './simple-before.mjs';

const { workloads, warmupMs, durationMs, repeats } = JSON.parse(process.argv[2]);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Records per second of `step` (which handles `records` records), run for durationMs after a warm-up. */
async function rate(step, records) {
  const results = [];
  for (let r = 0; r < repeats; r++) {
    const warmUntil = performance.now() + warmupMs;
    while (performance.now() < warmUntil) await step();
    let done = 0;
    const start = performance.now();
    while (performance.now() - start < durationMs) {
      await step();
      done += records;
    }
    results.push((done * 1000) / (performance.now() - start));
  }
  return median(results);
}

const out = {};
for (const w of workloads) {
  const body = readFileSync(w.bodyFile);
  const wire = w.gzip ? gzipSync(body, { level: 1 }) : body;
  const decode = () => {
    if (w.format === 'simple') return decodeSimpleLogs(body, 1_763_800_000_000_000_000n);
    return decodeOtlp(w.signal, w.encoding, w.gzip ? gunzipSync(wire) : body);
  };
  const decoded = decode();
  const records = decoded.rows.length;
  const result = { records, decode: await rate(decode, records) };
  if (w.signal === 'logs' && w.encoding === 'protobuf' && !w.gzip) result.protobufjs = await rate(() => protobufjsLogRows(body), records);
  // What issue 17 measures the JSON readers against: JSON.parse alone on the same bytes, which makes no row.
  if (w.encoding === 'json') result.jsonParse = await rate(() => JSON.parse(body.toString('utf8')), records);
  // And the simple endpoint's reader against the decoder it replaced (JSON.parse, then mapping).
  if (w.format === 'simple') result.before = await rate(() => decodeSimpleLogsBefore(body, 1_763_800_000_000_000_000n), records);
  if (w.insert) {
    const dir = mkdtempSync(join(tmpdir(), 'otelgate-bench-insert-'));
    const db = openForWriting(join(dir, 'bench.db'), { synchronous: 'normal', busyTimeoutMs: 1000 });
    const writer = new Writer(db);
    const batch = { signal: w.signal, project: 'bench', receivedUnixNano: BigInt(Date.now()) * 1_000_000n, rows: decoded.rows };
    // As the load generator does, every write moves the rows' times to the present, so that times advance.
    const FIELDS = { logs: ['timeUnixNano', 'observedTimeUnixNano'], traces: ['startTimeUnixNano', 'endTimeUnixNano'], metrics: ['timeUnixNano', 'startTimeUnixNano'] }[w.signal];
    const original = decoded.rows.map((row) => FIELDS.map((f) => row[f]));
    let last = 0n;
    const write = () => {
      let shift = BigInt(Date.now()) * 1_000_000n - 1_763_800_000_000_000_000n;
      if (shift <= last) shift = last + 1000n;
      last = shift;
      decoded.rows.forEach((row, i) => FIELDS.forEach((f, j) => (row[f] = original[i][j] + shift)));
      return writer.write(batch);
    };
    result.insert = await rate(write, records);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  out[w.name] = result;
}
process.stdout.write(`${JSON.stringify(out)}\n`);
