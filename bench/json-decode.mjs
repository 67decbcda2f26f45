// OTLP JSON logs (or traces) decoding on one body, in one process: JSON.parse alone (the ceiling
// the issue measures against), the reader, and the protobuf reader on the same export. Medians of
// several rounds. (The JSON.parse-based decoders the readers replaced, kept as the tests'
// references in test/otlp/json/reference-*.ts, took 0.63× and 0.64× JSON.parse: docs/architecture.md.)
// Usage, after npm run build: taskset -c 0 node bench/json-decode.mjs [records=1000] [rounds=7] [logs|traces]
import { decodeOtlp } from '../dist/otlp/decode.js';
import { otlpJson, otlpProtobuf } from './payloads.mjs';

const records = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 7);
const signal = process.argv[4] ?? 'logs';
const ROUND_MS = 1000;

const json = Buffer.from(JSON.stringify(otlpJson(signal, records)));
const protobuf = otlpProtobuf(signal, records);

const candidates = {
  'JSON.parse alone': () => JSON.parse(json.toString('utf8')),
  reader: () => decodeOtlp(signal, 'json', json),
  'protobuf reader (same export)': () => decodeOtlp(signal, 'protobuf', protobuf),
};

if (decodeOtlp(signal, 'json', json).rows.length !== records) throw new Error('the new reader did not read every record');

/** Bodies per second of `step` for ROUND_MS. */
function round(step) {
  let done = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ROUND_MS) {
    step();
    done++;
    now = performance.now();
  }
  return (done * 1000) / (now - start);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

for (const step of Object.values(candidates)) round(step);
// Interleaved: each round runs every candidate once, so that a busy machine slows them alike.
const rates = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]));
for (let i = 0; i < rounds; i++) for (const [name, step] of Object.entries(candidates)) rates[name].push(round(step));

console.log(`${records} ${signal} records, ${json.length} bytes of JSON (${protobuf.length} of protobuf); medians of ${rounds} rounds of ${ROUND_MS} ms`);
const parse = median(rates['JSON.parse alone']);
for (const [name, list] of Object.entries(rates)) {
  const bodies = median(list);
  console.log(`${name.padEnd(34)} ${(1e6 / bodies).toFixed(0).padStart(6)} µs a body  ${((bodies * records) / 1000).toFixed(0).padStart(6)} k records/s  ${(bodies / parse).toFixed(2)}× JSON.parse`);
}
