// The load generator: its own process (pinned to its own core by the harness), keep-alive
// connections speaking just enough HTTP/1.1 to send one prepared request again and again and read
// each answer, so that it costs far less CPU per request than the server it measures.
// Usage: node loadgen.mjs '<json options>'; prints one JSON line of results. With `count`, it
// stops after sending that many requests in all (filling a queue with an exact amount).
import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { isoMicros, T0, TIME_SPAN } from './payloads.mjs';
import { Tally } from './tally.mjs';

const options = JSON.parse(process.argv[2]);
const { host, port, path, headers, bodyFile, connections, warmupMs, durationMs, rate, timeFormat, gzip, count } = options;
const body = readFileSync(bodyFile);
const inRange = (ns) => ns >= T0 && ns < T0 + TIME_SPAN;

// Where the body's times are, found once: [offset, time] pairs, in the body's own encoding.
const times = [];
if (timeFormat === undefined) {
  // The same bytes every time: for servers that do not look at them (the bare server ceiling).
} else if (timeFormat === 'fixed64') {
  for (let at = 0; at + 8 <= body.length; at++) {
    const ns = body.readBigUInt64LE(at);
    if (inRange(ns)) times.push([at, ns]);
  }
} else {
  const text = body.toString('latin1');
  const pattern = timeFormat === 'iso' ? /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z/g : /\d{19}/g;
  for (const match of text.matchAll(pattern)) {
    const ns = timeFormat === 'iso' ? BigInt(Date.parse(match[0])) * 1_000_000n + BigInt(match[0].slice(23, 26)) * 1000n : BigInt(match[0]);
    if (inRange(ns)) times.push([match.index, ns]);
  }
}

/** The body with every time moved by the same amount to the present, compressed when the workload is. */
let lastShift = 0n;
const fixed = gzip ? gzipSync(body, { level: 1 }) : body;
function requestBody() {
  if (times.length === 0) return fixed;
  // Never the same shift twice, so that times only ever advance.
  let shift = BigInt(Date.now()) * 1_000_000n - T0;
  if (shift <= lastShift) shift = lastShift + 1000n;
  lastShift = shift;
  const copy = Buffer.from(body);
  for (const [at, ns] of times) {
    if (timeFormat === 'fixed64') copy.writeBigUInt64LE(ns + shift, at);
    else copy.write(timeFormat === 'iso' ? isoMicros(ns + shift) : String(ns + shift), at, 'latin1');
  }
  return gzip ? gzipSync(copy, { level: 1 }) : copy;
}

function request() {
  const payload = requestBody();
  const head = [`POST ${path} HTTP/1.1`, `Host: ${host}:${port}`, `Content-Length: ${payload.length}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n');
  return Buffer.concat([Buffer.from(head), payload]);
}

const tally = new Tally(warmupMs, durationMs);
let sent = 0;
// With a rate, each connection sends at most rate/connections requests per second, evenly spaced.
const interval = rate === undefined ? 0 : (1000 * connections) / rate;

function run(index) {
  return new Promise((resolve) => {
    const socket = connect({ host, port, noDelay: true });
    let buffer = Buffer.alloc(0);
    let sentAt = 0;
    let due = tally.started + (interval * index) / connections;
    const send = () => {
      if (tally.over || sent === count) {
        socket.end();
        resolve();
        return;
      }
      const wait = due - performance.now();
      if (wait > 1) {
        setTimeout(send, wait);
        return;
      }
      // Each connection keeps its place in the schedule: after a stall it skips the sends it
      // missed instead of sending from now on, which would leave every connection sending at once.
      due += interval * Math.max(1, Math.ceil((performance.now() - due) / interval));
      const next = request();
      sent++;
      sentAt = performance.now();
      socket.write(next);
    };
    socket.on('connect', send);
    socket.on('data', (chunk) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end === -1) return;
        const text = buffer.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(text)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        tally.record(performance.now() - sentAt, text.slice(9, 12));
        buffer = buffer.subarray(end + 4 + length);
        send();
      }
    });
    socket.on('error', () => {
      tally.errors++;
      resolve();
    });
    socket.on('close', resolve);
  });
}

await Promise.all(Array.from({ length: connections }, (_, i) => run(i)));
tally.print({ times: times.length });
