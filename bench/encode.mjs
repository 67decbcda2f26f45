// In-process cost of the OTLP encoders beside the decoders, per record: the benchmark's realistic
// bodies (payloads.mjs) decoded to rows once, then rows → body (encode) and body → rows (decode),
// each timed for a fixed time after a warm-up, median of the runs. Usage (after npm run build):
//   node --max-semi-space-size=32 bench/encode.mjs [records per batch = 1000] [runs = 7]
import { decodeOtlp } from '../dist/otlp/decode.js';
import { encodeOtlp } from '../dist/otlp/encode.js';
import { otlpProtobuf } from './payloads.mjs';

const records = Number(process.argv[2] ?? 1000);
const runs = Number(process.argv[3] ?? 7);
const WARMUP_MS = 500;
const RUN_MS = 1000;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** µs per record of `step`, which handles `records` records per call. */
function perRecord(step) {
  const results = [];
  for (let r = 0; r < runs; r++) {
    const warmUntil = performance.now() + WARMUP_MS;
    while (performance.now() < warmUntil) step();
    let calls = 0;
    const start = performance.now();
    while (performance.now() - start < RUN_MS) {
      step();
      calls++;
    }
    results.push(((performance.now() - start) * 1000) / (calls * records));
  }
  return median(results);
}

const table = [];
for (const signal of ['logs', 'traces', 'metrics']) {
  const { rows } = decodeOtlp(signal, 'protobuf', otlpProtobuf(signal, records));
  const bodies = { protobuf: encodeOtlp(signal, 'protobuf', rows), json: encodeOtlp(signal, 'json', rows) };
  for (const encoding of ['protobuf', 'json']) {
    const body = bodies[encoding];
    if (decodeOtlp(signal, encoding, body).rows.length !== rows.length) throw new Error(`${signal} ${encoding}: the round trip lost rows`);
    table.push({
      signal,
      encoding,
      bytes: body.length,
      'encode µs/record': perRecord(() => encodeOtlp(signal, encoding, rows)).toFixed(3),
      'encode by value µs/record': perRecord(() => encodeOtlp(signal, encoding, rows, { group: 'value' })).toFixed(3),
      'decode µs/record': perRecord(() => decodeOtlp(signal, encoding, body)).toFixed(3),
    });
  }
}
console.log(`${records} records per batch, median of ${runs} runs of ${RUN_MS} ms, node ${process.version}`);
console.table(table);
