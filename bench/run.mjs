// npm run bench: otelgate on one core, the load generator on the other, each workload against
// each pipeline after a warm-up, three times, medians reported beside ceilings measured in the
// same run on the same core. Writes a table to stdout, bench/out/results.json and bench/RESULTS.md.
//
// A workload or a pipeline is one entry in WORKLOADS or PIPELINES below.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateKey } from '../dist/auth/key.js';
import { writeKeysFile } from '../dist/auth/keysfile.js';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { gzip, otlpJson, otlpProtobuf, simpleJson } from './payloads.mjs';
import { PROCESSORS } from './processors.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const NODE = process.execPath;
const QUICK = process.argv.includes('--quick');
// --workload=<name>: that workload's rounds alone, printed and not written to RESULTS.md, for working on one pipeline.
// --small: issue 17's small requests at 1,000/s alone (the bare server, the shipped pipeline, it with nop, and it with
// the store's commit_interval at 5ms), printed.
const SMALL = process.argv.includes('--small');
// --profile: each otelgate writes a V8 CPU profile under bench/out/prof/<pipeline>/ when it stops
// (read it with cpuprofile-top.mjs); --profile=heap a sampling heap profile (what allocated the most).
const PROFILE_ARG = process.argv.find((arg) => arg === '--profile' || arg.startsWith('--profile='));
const PROFILE = PROFILE_ARG === undefined ? undefined : (PROFILE_ARG.split('=')[1] ?? 'cpu');
if (PROFILE !== undefined && PROFILE !== 'cpu' && PROFILE !== 'heap') throw new Error(`${PROFILE_ARG}: --profile, --profile=cpu or --profile=heap`);
const ONLY = process.argv.find((arg) => arg.startsWith('--workload='))?.slice('--workload='.length);
// --pipelines=nop,loki with --workload: only those of its pipelines (nop among them for the ratios).
const ONLY_PIPELINES = process.argv.find((arg) => arg.startsWith('--pipelines='))?.slice('--pipelines='.length).split(',');
if (ONLY_PIPELINES !== undefined && ONLY === undefined) throw new Error('--pipelines goes with --workload');
if (SMALL && ONLY !== undefined) throw new Error('--small runs alone, without --workload');
const TIMING = QUICK ? { warmupMs: 300, durationMs: 1000, repeats: 1 } : { warmupMs: 1000, durationMs: 3000, repeats: 3 };
const CONNECTIONS = 8;
// otelgate runs with the V8 flags of npm start (the same as its bin's shebang), and so do the
// ceilings that run on its core: the same runtime on both sides of a ratio.
const START_FLAGS = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start.split(' ').filter((word) => word.startsWith('--'));
const OTELGATE_CORE = '0';
const LOAD_CORE = '1';
// Forwarding: the sink is down for this long while the load goes on, after this long with it up.
const OUTAGE = QUICK ? { beforeMs: 2000, downMs: 5000 } : { beforeMs: 5000, downMs: 30_000 };
// The drain: requests of 1,000 records queued while the sink is down, 1 M records.
const DRAIN_REQUESTS = 1000;

const WORKLOADS = [
  { name: 'logs protobuf', signal: 'logs', format: 'otlp', encoding: 'protobuf', records: 1000 },
  { name: 'logs JSON', signal: 'logs', format: 'otlp', encoding: 'json', records: 1000 },
  { name: 'logs protobuf gzip', signal: 'logs', format: 'otlp', encoding: 'protobuf', gzip: true, records: 1000 },
  { name: 'traces protobuf', signal: 'traces', format: 'otlp', encoding: 'protobuf', records: 1000 },
  { name: 'traces JSON', signal: 'traces', format: 'otlp', encoding: 'json', records: 1000 },
  { name: 'metrics protobuf', signal: 'metrics', format: 'otlp', encoding: 'protobuf', records: 1000 },
  { name: 'metrics JSON', signal: 'metrics', format: 'otlp', encoding: 'json', records: 1000 },
  { name: 'simple JSON', signal: 'logs', format: 'simple', encoding: 'json', records: 1000 },
  { name: 'logs protobuf small', signal: 'logs', format: 'otlp', encoding: 'protobuf', records: 10 },
];

/** A pipeline with one exporter and nothing else, on every signal. */
const only = (id, settings) => (dir, workers) =>
  `extensions: {apikeyauth: {keys_file: ${keysFile}}}\nreceivers: {ingest: {endpoint: "127.0.0.1:0", auth: {authenticator: apikeyauth}}}\nexporters: {${id}: ${settings(dir)}}\n` +
  `service:\n  workers: ${workers}\n  extensions: [apikeyauth]\n  pipelines:\n` +
  ['logs', 'traces', 'metrics'].map((s) => `    ${s}: {receivers: [ingest], exporters: [${id}]}\n`).join('');

/**
 * The pipeline otelgate ships (pipelines/default.yaml: memory_limiter, store, own metrics,
 * health_check) as it is, but for its addresses, on free loopback ports, and its files, in the
 * run's directory: what a user running the default gets.
 */
function shipped(dir) {
  const config = parseYaml(readFileSync(join(ROOT, 'pipelines', 'default.yaml'), 'utf8'));
  config.extensions.apikeyauth = { keys_file: keysFile };
  config.extensions.health_check.endpoint = '127.0.0.1:0';
  config.receivers.ingest.endpoint = '127.0.0.1:0';
  config.exporters.store.path = join(dir, 'bench.db');
  for (const reader of config.service.telemetry.metrics.readers) Object.assign(reader.pull.exporter.prometheus, { host: '127.0.0.1', port: 0 });
  return stringifyYaml(config);
}

/** The same with nop in place of the store: the receiver's, the memory_limiter's and own metrics' work alone. */
function shippedNop(dir) {
  const config = parseYaml(shipped(dir));
  config.exporters = { nop: null };
  for (const pipeline of Object.values(config.service.pipelines)) pipeline.exporters = ['nop'];
  return stringifyYaml(config);
}

/** The shipped pipeline with the store's commit_interval at 5ms (store/README.md: commits of small requests). */
function shippedCommitInterval(dir) {
  const config = parseYaml(shipped(dir));
  config.exporters.store.commit_interval = '5ms';
  return stringifyYaml(config);
}

/**
 * OTLP `signal` (logs by default) to a remote exporter (otlp_http unless `type` says otherwise),
 * whose endpoint is the run's sink (bench/sink.mjs; `path` added) and whose sending queue is on
 * disk through a file_storage extension in the run's directory; every other setting is the
 * default but those in `queue`, added to sending_queue, and in `exporter`.
 */
const forwarding = (queue = {}, exporter = {}, type = 'otlp_http', path = '', signal = 'logs') => (dir, workers, sink) =>
  `extensions: {apikeyauth: {keys_file: ${keysFile}}, file_storage: {directory: ${join(dir, 'queue')}}}\n` +
  `receivers: {ingest: {endpoint: "127.0.0.1:0", auth: {authenticator: apikeyauth}}}\n` +
  `exporters: {${type}: ${JSON.stringify({ endpoint: `http://127.0.0.1:${sink.port}${path}`, ...exporter, sending_queue: { storage: 'file_storage', ...queue } })}}\n` +
  `service:\n  workers: ${workers}\n  extensions: [apikeyauth, file_storage]\n  pipelines:\n    ${signal}: {receivers: [ingest], exporters: [${type}]}\n`;

/** The Collector's otlp receiver on gRPC alone, keys checked as the ingest receiver checks them, into nop. */
const grpcNop = (dir, workers) =>
  `extensions: {apikeyauth: {keys_file: ${keysFile}}}\nreceivers: {otlp: {protocols: {grpc: {endpoint: "127.0.0.1:0", auth: {authenticator: apikeyauth}}}}}\nexporters: {nop: }\n` +
  `service:\n  workers: ${workers}\n  extensions: [apikeyauth]\n  pipelines:\n    logs: {receivers: [otlp], exporters: [nop]}\n`;

// config(dir, workers, sink) → the config file's text. `store`: its figures go beside the insert
// ceiling. `sink`: it forwards to a sink of its own, started with it. `workloads`: the only
// workloads it runs (the bench must stay under ten minutes; [] for none: the forwarding rounds).
// `grpc`: it is sent to over OTLP/gRPC (bench/grpc-loadgen.mjs) and compared with nop over HTTP.
/** The bench's processors (processors.mjs), those named in this order ahead of nop. */
const processed = (processors) => (dir, workers) =>
  `extensions: {apikeyauth: {keys_file: ${keysFile}}}\nreceivers: {ingest: {endpoint: "127.0.0.1:0", auth: {authenticator: apikeyauth}}}\nexporters: {nop: }\n` +
  PROCESSORS +
  `service:\n  workers: ${workers}\n  extensions: [apikeyauth]\n  pipelines:\n    logs: {receivers: [ingest], processors: [${processors.join(', ')}], exporters: [nop]}\n`;

const PIPELINES = {
  nop: { config: only('nop', () => '{}') },
  // Compared with nop round by round, as the forwarders are.
  filter: { config: processed(['filter']), vsNop: true, workloads: ['logs protobuf'] },
  // Issue 16's chain: the same filter, an attributes processor of two actions and a transform of three
  // statements, each changing every record (new rows, copy on write).
  'filter attributes transform': { config: processed(['filter', 'attributes', 'transform']), vsNop: true, workloads: ['logs protobuf'] },
  // Issue 16's redaction: three blocked_values on every string value of every record (none matches).
  redaction: { config: processed(['redaction']), vsNop: true, workloads: ['logs protobuf'] },
  store: { config: only('store', (dir) => `{path: ${join(dir, 'bench.db')}}`), store: true },
  default: { config: shipped, store: true, workloads: ['logs protobuf'] },
  // Issue 17's small requests at a steady rate (the extras), beside the bare server.
  'default nop': { config: shippedNop, workloads: [] },
  'default commit_interval 5ms': { config: shippedCommitInterval, store: true, workloads: [] },
  'nop grpc': { config: grpcNop, grpc: true, workloads: ['logs protobuf'] },
  otlp_http: { config: forwarding(), sink: true, workloads: ['logs protobuf'] },
  // The same with the Collector's other compressions: zstd (at its default, the fastest speed), and none.
  'otlp_http zstd': { config: forwarding({}, { compression: 'zstd' }), sink: true, workloads: ['logs protobuf'] },
  'otlp_http none': { config: forwarding({}, { compression: 'none' }), sink: true, workloads: ['logs protobuf'] },
  // loki with every setting at its default: snappy protobuf, raw lines, structured metadata.
  loki: { config: forwarding({}, {}, 'loki'), sink: true, workloads: ['logs protobuf'] },
  // The otlp exporter (OTLP/gRPC) with every setting at its default (gzip) but plaintext (http://),
  // to the sink's gRPC port; and without compression.
  'otlp grpc': { config: (dir, workers, sink) => forwarding({}, {}, 'otlp')(dir, workers, { port: /grpc (\d+)/.exec(sink.output)?.[1] }), sink: true, workloads: ['logs protobuf'] },
  'otlp grpc none': { config: (dir, workers, sink) => forwarding({}, { compression: 'none' }, 'otlp')(dir, workers, { port: /grpc (\d+)/.exec(sink.output)?.[1] }), sink: true, workloads: ['logs protobuf'] },
  // prometheusremotewrite with every setting at its default, on the metrics workload (gauges,
  // counters and histograms); the sink counts one sample per data point (bench/sink.mjs).
  prometheusremotewrite: { config: forwarding({}, {}, 'prometheusremotewrite', '/api/v1/write', 'metrics'), sink: true, workloads: ['metrics protobuf'] },
  // The outage: a queue that holds the whole outage (the default 1,000 requests is full after a
  // few seconds of it, and the rest would be 503s), so that it keeps growing on disk throughout.
  'otlp_http outage': { config: forwarding({ queue_size: 100_000 }), sink: true, workloads: [] },
};
const pipelinesOf = (w) => Object.keys(PIPELINES).filter((p) => (PIPELINES[p].workloads?.includes(w.name) ?? true) && (ONLY_PIPELINES?.includes(p) ?? true));

// ---- bodies ----
const work = mkdtempSync(join(tmpdir(), 'otelgate-bench-'));
function prepare(w) {
  let body;
  if (w.format === 'simple') body = Buffer.from(JSON.stringify(simpleJson(w.records)));
  else if (w.encoding === 'json') body = Buffer.from(JSON.stringify(otlpJson(w.signal, w.records)));
  else body = otlpProtobuf(w.signal, w.records);
  const timeFormat = w.format === 'simple' ? 'iso' : w.encoding === 'json' ? 'decimal' : 'fixed64';
  const bodyFile = join(work, `${w.name.replaceAll(' ', '-')}.bin`);
  writeFileSync(bodyFile, body);
  const path = w.format === 'simple' ? '/api/v1/ingest' : `/v1/${w.signal}`;
  const headers = { 'Content-Type': w.encoding === 'json' ? 'application/json' : 'application/x-protobuf' };
  if (w.gzip) headers['Content-Encoding'] = 'gzip';
  // The body on file is uncompressed: the load generator moves its times to the present, then compresses it.
  return { ...w, bodyFile, bytes: w.gzip ? gzip(body).length : body.length, path, headers, timeFormat };
}
if (ONLY !== undefined && !WORKLOADS.some((w) => w.name === ONLY)) throw new Error(`--workload=${ONLY}: no such workload; the workloads are ${WORKLOADS.map((w) => w.name).join(', ')}`);
const workloads = WORKLOADS.filter((w) => ONLY === undefined || w.name === ONLY).map(prepare);

// ---- processes ----
const key = generateKey();
const keysFile = join(work, 'keys.yaml');
writeKeysFile(keysFile, [{ id: key.id, project: 'bench', sha256: key.sha256 }]);
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const pinned = (core, args) => (core === undefined ? [NODE, args] : ['taskset', ['-c', core, NODE, ...args]]);

function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}
const peakRssMiB = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const rssMiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const epochMs = () => performance.timeOrigin + performance.now();

/** Busy and total jiffies of one core so far, from /proc/stat (busy: all but idle and iowait). */
function coreTicks(core) {
  const fields = new RegExp(`^cpu${core} (.*)$`, 'm').exec(readFileSync('/proc/stat', 'utf8'))[1].trim().split(/\s+/).map(Number);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - fields[3] - fields[4], total };
}

/** Bytes of every file under a directory (the sending queue's segments and acknowledgement log). */
function bytesUnder(dir) {
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) if (entry.isFile()) bytes += statSync(join(entry.parentPath, entry.name)).size;
  return bytes;
}

/** Starts a server process and resolves with its pid, port and a stop function once it listens. */
function startServer(command, args, ready) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    // A server that never says it is ready (a log line reworded) fails the run instead of hanging it.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not say it was ready within 30 s:\n${output}`));
    }, 30_000);
    const onData = (chunk) => {
      output += chunk;
      const port = ready(output);
      if (port === undefined) return;
      clearTimeout(timer);
      const stop = () =>
        new Promise((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once('exit', done);
          child.kill('SIGTERM');
        });
      resolve({ pid: child.pid, port, output, stop });
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}:\n${output}`)));
  });
}

/** The backend otlp_http forwards to, on the load generator's core; `port` to start it again where it was. */
const startSink = (port = 0) => startServer(...pinned(LOAD_CORE, [join(HERE, 'sink.mjs'), String(port)]), (o) => /listening (\d+)/.exec(o)?.[1]);
const sinkStats = (sink) => fetch(`http://127.0.0.1:${sink.port}/stats`).then((response) => response.json());

async function startOtelgate(pipeline, core, workers = 1) {
  const dir = mkdtempSync(join(work, 'run-'));
  const config = join(dir, 'config.yaml');
  const sink = PIPELINES[pipeline].sink ? await startSink() : undefined;
  writeFileSync(config, PIPELINES[pipeline].config(dir, workers, sink));
  const profile = PROFILE === undefined ? [] : [`--${PROFILE}-prof`, `--${PROFILE}-prof-dir=${join(HERE, 'out', 'prof', pipeline.replaceAll(' ', '-'))}`];
  const [command, args] = pinned(core, [...START_FLAGS, ...profile, 'dist/cli.js', 'run', '--config', config]);
  // With workers, the primary says it is ready once every worker is.
  const readyLines = workers > 1 ? workers + 1 : 1;
  // The ingest receiver's line (health_check and own metrics log endpoints of their own).
  const ready = (output) => (output.split('Everything is ready').length > readyLines ? /"endpoint":"127\.0\.0\.1:(\d+)","tls"/.exec(output)?.[1] : undefined);
  const server = await startServer(command, args, ready);
  if (sink === undefined) return { ...server, dir, pipeline };
  // `sink` is replaced when the sink is started again after an outage; stop() stops the one there is.
  const forwarder = { ...server, dir, pipeline, sink, delivered: 0 };
  forwarder.stop = () => Promise.all([server.stop(), forwarder.sink.stop()]);
  return forwarder;
}

/** One load-generator run; resolves with its results and the server's CPU seconds over the measured window. */
function load(server, w, options = {}) {
  const settings = { host: '127.0.0.1', port: Number(server.port), path: w.path, headers: { ...w.headers, Authorization: `Bearer ${key.key}` }, bodyFile: w.bodyFile, timeFormat: options.fixedBody ? undefined : w.timeFormat, gzip: w.gzip === true, connections: options.connections ?? CONNECTIONS, ...TIMING, ...options.timing, rate: options.rate, count: options.count };
  return new Promise((resolve, reject) => {
    // core: undefined → the load generator's own core; null → not pinned (the both-cores run).
    const generator = PIPELINES[server.pipeline]?.grpc ? 'grpc-loadgen.mjs' : 'loadgen.mjs';
    const [command, args] = pinned(options.core === null ? undefined : LOAD_CORE, [join(HERE, generator), JSON.stringify(settings)]);
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let cpuStart = 0;
    let cpuEnd = 0;
    const timers = [setTimeout(() => (cpuStart = cpuSeconds(server.pid)), settings.warmupMs), setTimeout(() => (cpuEnd = cpuSeconds(server.pid)), settings.warmupMs + settings.durationMs)];
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (out += c));
    child.once('exit', () => {
      // A run with a count ends before its duration.
      for (const timer of timers) clearTimeout(timer);
      try {
        const result = JSON.parse(out);
        const ok = (result.statuses['200'] ?? 0) + (result.statuses['202'] ?? 0);
        resolve({ ...result, ok, rps: result.requests / result.seconds, recordsPerSecond: (ok * w.records) / result.seconds, cpu: cpuEnd - cpuStart });
      } catch (error) {
        reject(new Error(`load generator failed: ${out} ${error}`));
      }
    });
  });
}

function withDefaults(server, options) {
  // Only a store looks at the times, and moving them costs the load generator: the others get the body as it is.
  return PIPELINES[server.pipeline].store ? options : { fixedBody: true, ...options };
}

const accepted = (run) => Object.entries(run.answered).reduce((n, [status, count]) => (status.startsWith('2') ? n + count : n), 0);

/** Waits until the sink holds every record the forwarder was answered 2xx for; resolves with its stats. */
async function allDelivered(server, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stats = await sinkStats(server.sink);
    if (stats.records >= server.delivered) return stats;
    if (Date.now() > deadline) throw new Error(`${server.pipeline}: the sink got ${stats.records} of ${server.delivered} records within ${timeoutMs / 1000} s`);
    await sleep(50);
  }
}

/**
 * One forwarding run: the load for the warm-up, until the sink has all of it; then the load for
 * the measured time, until the sink has all of that. Records per second are those the clients were
 * answered 2xx for in the measured run (all of them counted at the sink) over the time from its
 * first request to the last of them at the sink: what goes through, end to end. While the load
 * runs, otelgate answers faster than it delivers (the queue takes the difference), so a rate taken
 * at the client would count what is still queued.
 */
async function forward(server, w) {
  const phase = async (durationMs) => {
    const sinkBefore = await sinkStats(server.sink);
    const cpuBefore = cpuSeconds(server.pid);
    const coreBefore = coreTicks(LOAD_CORE);
    const run = await load(server, w, { fixedBody: true, timing: { warmupMs: 0, durationMs } });
    server.delivered = sinkBefore.records + accepted(run) * w.records;
    const sinkAfter = await allDelivered(server);
    const coreAfter = coreTicks(LOAD_CORE);
    const seconds = (sinkAfter.lastMs - run.startedEpochMs) / 1000;
    const records = sinkAfter.records - sinkBefore.records;
    return {
      ...run,
      seconds,
      ok: accepted(run),
      rps: (sinkAfter.requests - sinkBefore.requests) / seconds,
      recordsPerSecond: records / seconds,
      acceptedRecordsPerSecond: (run.ok * w.records) / run.seconds,
      duplicates: records - accepted(run) * w.records,
      cpu: cpuSeconds(server.pid) - cpuBefore,
      sinkCpuShare: (sinkAfter.cpuSeconds - sinkBefore.cpuSeconds) / seconds,
      loadCoreBusy: (coreAfter.busy - coreBefore.busy) / (coreAfter.total - coreBefore.total),
    };
  };
  await phase(TIMING.warmupMs);
  return phase(TIMING.durationMs);
}

/**
 * The drain: the sink goes down, DRAIN_REQUESTS requests are queued (answered 200 once on disk),
 * the sink comes back on the same port, and the harness waits until it has every record. Times
 * are from the sink's start: to its first record (the exporter's consumers wait out their retry
 * backoff), to 99 % of them, to the last.
 */
async function drain(server, w) {
  await server.sink.stop();
  const fill = await load(server, w, { fixedBody: true, count: DRAIN_REQUESTS, timing: { warmupMs: 0, durationMs: 600_000 } });
  const queued = accepted(fill) * w.records;
  const queueBytes = bytesUnder(join(server.dir, 'queue'));
  server.sink = await startSink(server.sink.port);
  server.delivered = queued;
  const cpuBefore = cpuSeconds(server.pid);
  let at99 = 0;
  const deadline = Date.now() + 300_000;
  let stats;
  for (;;) {
    stats = await sinkStats(server.sink);
    if (at99 === 0 && stats.records >= 0.99 * queued) at99 = stats.nowMs;
    if (stats.records >= queued) break;
    if (Date.now() > deadline) throw new Error(`drain: the sink got ${stats.records} of ${queued} records within 300 s`);
    await sleep(50);
  }
  const seconds = (stats.lastMs - stats.startedMs) / 1000;
  return {
    queued,
    refused: fill.requests - accepted(fill),
    queueBytes,
    delivered: stats.records,
    firstS: (stats.firstMs - stats.startedMs) / 1000,
    at99S: (Math.min(at99, stats.lastMs) - stats.startedMs) / 1000,
    seconds,
    recordsPerSecond: stats.records / seconds,
    cpuShare: (cpuSeconds(server.pid) - cpuBefore) / seconds,
    sinkCpuShare: stats.cpuSeconds / ((stats.nowMs - stats.startedMs) / 1000),
  };
}

/**
 * The outage: the load runs OUTAGE.beforeMs with the sink up, then the sink goes down for
 * OUTAGE.downMs while the load goes on. RSS (VmRSS) is sampled every 100 ms: the growth is the
 * highest sample while the sink is down minus the highest in the last seconds before (a sample
 * against a peak would count the young generation's swing as growth).
 */
async function outage(w) {
  const server = await startOtelgate('otlp_http outage', OTELGATE_CORE);
  const samples = [];
  const sampler = setInterval(() => samples.push({ atMs: epochMs(), rss: rssMiB(server.pid) }), 100);
  const startedMs = epochMs();
  const loading = load(server, w, { fixedBody: true, timing: { warmupMs: 0, durationMs: OUTAGE.beforeMs + OUTAGE.downMs } });
  await sleep(OUTAGE.beforeMs);
  const downMs = epochMs();
  await server.sink.stop();
  const queueBytesBefore = bytesUnder(join(server.dir, 'queue'));
  await sleep(OUTAGE.downMs);
  const endMs = epochMs();
  const queueBytes = bytesUnder(join(server.dir, 'queue'));
  clearInterval(sampler);
  const run = await loading;
  const highest = (from, to) => Math.max(...samples.filter((s) => s.atMs >= from && s.atMs < to).map((s) => s.rss));
  const result = {
    rssBeforeMiB: highest(startedMs + 1000, downMs),
    rssPeakMiB: highest(downMs, endMs),
    rssEndMiB: samples.at(-1).rss,
    queueBytesBefore,
    queueBytes,
    accepted: accepted(run) * w.records,
    notOk: Object.entries(run.answered).filter(([s]) => !s.startsWith('2')).map(([s, n]) => `${n}×${s}`),
  };
  await server.stop();
  rmSync(server.dir, { recursive: true, force: true });
  return { ...result, growthMiB: result.rssPeakMiB - result.rssBeforeMiB };
}

/** Medians of several load-generator runs. */
function summarize(runs, w) {
  const mid = (f) => median(runs.map(f));
  return {
    recordsPerSecond: mid((r) => r.recordsPerSecond),
    requestsPerSecond: mid((r) => r.rps),
    p50: mid((r) => r.p50),
    p99: mid((r) => r.p99),
    cpuPerMillion: mid((r) => (r.ok === 0 ? 0 : (r.cpu / (r.ok * w.records)) * 1e6)),
    cpuShare: mid((r) => r.cpu / r.seconds),
    notOk: runs.flatMap((r) => Object.entries(r.statuses).filter(([s]) => s !== '200' && s !== '202').map(([s, n]) => `${n}×${s}`)),
  };
}

async function measure(server, w, options = {}) {
  const runs = [];
  for (let i = 0; i < TIMING.repeats; i++) runs.push(await load(server, w, withDefaults(server, options)));
  return summarize(runs, w);
}

/** One run of the in-process ceilings for one workload, on otelgate's core. */
function ceilingsOnce(w) {
  // A fresh process each round: it gets the same warm-up as an otelgate run, so its JIT is as warm.
  const options = { workloads: [{ ...w, insert: true }], warmupMs: TIMING.warmupMs, durationMs: TIMING.durationMs / 2, repeats: 1 };
  const [command, args] = pinned(OTELGATE_CORE, [...START_FLAGS, join(HERE, 'ceilings.mjs'), JSON.stringify(options)]);
  return JSON.parse(execFileSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 }))[w.name];
}

/**
 * Issue 17: CPU a 10-record request costs at a steady 1,000 requests/s, otelgate on the shipped
 * pipeline (and the same with nop in place of the store, and with the store's commit_interval at
 * 5ms) against the bare server, round by round.
 */
async function smallRequests() {
  const small = workloads.find((w) => w.name === 'logs protobuf small');
  const steadyBare = await startServer(...pinned(OTELGATE_CORE, [...START_FLAGS, join(HERE, 'bare-server.mjs')]), (o) => /listening (\d+)/.exec(o)?.[1]);
  const smallServers = {
    'default nop': await startOtelgate('default nop', OTELGATE_CORE),
    default: await startOtelgate('default', OTELGATE_CORE),
    'default commit_interval 5ms': await startOtelgate('default commit_interval 5ms', OTELGATE_CORE),
  };
  const smallRounds = [];
  const perRequest = (run) => (run.cpu * 1e6) / (run.rps * run.seconds);
  const timing = QUICK ? {} : { warmupMs: 5000, durationMs: 5000 };
  for (let r = 0; r < TIMING.repeats; r++) {
    const round = { bare: perRequest(await load(steadyBare, small, { fixedBody: true, rate: 1000, timing })) };
    for (const [pipeline, server] of Object.entries(smallServers)) round[pipeline] = perRequest(await load(server, small, withDefaults(server, { rate: 1000, timing })));
    smallRounds.push(round);
  }
  await steadyBare.stop();
  for (const server of Object.values(smallServers)) {
    await server.stop();
    rmSync(server.dir, { recursive: true, force: true });
  }
  return Object.fromEntries(
    ['bare', 'default nop', 'default', 'default commit_interval 5ms'].map((name) => [name, { microsPerRequest: median(smallRounds.map((round) => round[name])), ratios: smallRounds.map((round) => round[name] / round.bare) }]),
  );
}

// ---- the run ----
const started = Date.now();
const log = (text) => process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0)}s] ${text}\n`);
const results = { date: new Date().toISOString(), machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version }, timing: TIMING, connections: CONNECTIONS, workloads: {}, extra: {} };

if (SMALL) {
  const small = await smallRequests();
  for (const [name, m] of Object.entries(small)) log(`${name}: ${m.microsPerRequest.toFixed(1)} µs CPU a request; of the bare server ${m.ratios.map((x) => `${x.toFixed(2)}×`).join(', ')}`);
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
}

// Each round measures a workload's ceilings and otelgate on every pipeline back to back on the
// same core, and a ratio is taken within its round: the machine is shared, and figures taken
// minutes apart differ by a quarter. Reported: medians of the figures and of the ratios.
const bare = await startServer(...pinned(OTELGATE_CORE, [...START_FLAGS, join(HERE, 'bare-server.mjs')]), (o) => /listening (\d+)/.exec(o)?.[1]);
const pbjs = await startServer(...pinned(OTELGATE_CORE, [...START_FLAGS, join(HERE, 'bare-server.mjs'), '--protobufjs']), (o) => /listening (\d+)/.exec(o)?.[1]);
for (const w of workloads) {
  log(`${w.name}: ceilings and ${pipelinesOf(w).join(', ')}, ${TIMING.repeats} rounds`);
  const servers = {};
  for (const pipeline of pipelinesOf(w)) servers[pipeline] = await startOtelgate(pipeline, OTELGATE_CORE);
  const rounds = [];
  for (let r = 0; r < TIMING.repeats; r++) {
    const ceilings = ceilingsOnce(w);
    // The bare server does not read the body, so it gets it unchanged: the ceiling is the server's, not the generator's.
    ceilings.bareRequestsPerSecond = (await load(bare, w, { fixedBody: true })).rps;
    if (w.name === 'logs protobuf') ceilings.protobufjsServerRecordsPerSecond = (await load(pbjs, w, { fixedBody: true })).recordsPerSecond;
    const runs = {};
    for (const pipeline of pipelinesOf(w)) runs[pipeline] = PIPELINES[pipeline].sink ? await forward(servers[pipeline], w) : await load(servers[pipeline], w, withDefaults(servers[pipeline], {}));
    rounds.push({ ceilings, runs });
  }
  const ceilings = {};
  for (const key of Object.keys(rounds[0].ceilings)) ceilings[key] = median(rounds.map((round) => round.ceilings[key]));
  const pipelines = {};
  for (const [pipeline, server] of Object.entries(servers)) {
    const runs = rounds.map((round) => round.runs[pipeline]);
    const ratio = (field, ceiling) => median(rounds.map((round) => round.runs[pipeline][field] / round.ceilings[ceiling]));
    // A forwarder beside nop in the same round: records delivered over records nop took.
    const vsNop = rounds.map((round) => round.runs[pipeline].recordsPerSecond / round.runs.nop.recordsPerSecond);
    pipelines[pipeline] = {
      ...summarize(runs, w),
      peakRssMiB: peakRssMiB(server.pid),
      ratios: {
        decode: ratio('recordsPerSecond', 'decode'),
        insert: ratio('recordsPerSecond', 'insert'),
        bare: ratio('rps', 'bareRequestsPerSecond'),
        ...(w.name === 'logs protobuf' ? { protobufjsServer: ratio('recordsPerSecond', 'protobufjsServerRecordsPerSecond') } : {}),
        ...(PIPELINES[pipeline].sink || PIPELINES[pipeline].grpc || PIPELINES[pipeline].vsNop ? { nop: median(vsNop) } : {}),
      },
      ...(PIPELINES[pipeline].grpc || PIPELINES[pipeline].vsNop ? { nopRatios: vsNop } : {}),
      ...(PIPELINES[pipeline].sink
        ? {
            nopRatios: vsNop,
            acceptedRecordsPerSecond: median(runs.map((r) => r.acceptedRecordsPerSecond)),
            sinkCpuShare: median(runs.map((r) => r.sinkCpuShare)),
            loadCoreBusy: median(runs.map((r) => r.loadCoreBusy)),
            duplicates: runs.reduce((n, r) => n + r.duplicates, 0),
          }
        : {}),
    };
    await server.stop();
    rmSync(server.dir, { recursive: true, force: true });
  }
  results.workloads[w.name] = { bytes: w.bytes, records: w.records, ceilings, pipelines };
}
await bare.stop();
await pbjs.stop();
if (ONLY !== undefined) {
  const only = results.workloads[ONLY].pipelines;
  for (const [pipeline, p] of Object.entries(only)) log(`${pipeline}: ${Math.round(p.recordsPerSecond)} rec/s, ${p.cpuPerMillion.toFixed(2)} s CPU per M records, peak RSS ${Math.round(p.peakRssMiB)} MiB${p.nopRatios === undefined ? '' : `, of nop ${p.nopRatios.map((x) => `${Math.round(100 * x)} %`).join(', ')}`}${p.sinkCpuShare === undefined ? '' : `; otelgate CPU ${Math.round((100 * p.cpuPerMillion * p.recordsPerSecond) / 1e6)} % of its core, sink ${Math.round(100 * p.sinkCpuShare)} %, load core busy ${Math.round(100 * p.loadCoreBusy)} %`}`);
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
}

// Each round: a fresh otelgate forwarding to its sink (its peak RSS after forwarding alone), the
// same one draining a queue of 1 M records filled with the sink down (the drain rate over the
// forwarding rate of the same round), then another with a queue that holds the whole outage,
// whose sink goes down under load.
log(`forwarding: otlp_http → sink, draining ${DRAIN_REQUESTS} queued requests, the sink down ${OUTAGE.downMs / 1000} s under load; ${TIMING.repeats} rounds`);
results.forwarding = { rounds: [] };
for (let r = 0; r < TIMING.repeats; r++) {
  const server = await startOtelgate('otlp_http', OTELGATE_CORE);
  const forwarded = await forward(server, workloads[0]);
  const forwardingPeakRssMiB = peakRssMiB(server.pid);
  const drained = await drain(server, workloads[0]);
  const round = {
    forwarding: { recordsPerSecond: forwarded.recordsPerSecond, acceptedRecordsPerSecond: forwarded.acceptedRecordsPerSecond, peakRssMiB: forwardingPeakRssMiB, cpuShare: forwarded.cpu / forwarded.seconds, sinkCpuShare: forwarded.sinkCpuShare, loadCoreBusy: forwarded.loadCoreBusy },
    drain: { ...drained, ratio: drained.recordsPerSecond / forwarded.recordsPerSecond, peakRssMiB: peakRssMiB(server.pid) },
  };
  await server.stop();
  rmSync(server.dir, { recursive: true, force: true });
  round.outage = await outage(workloads[0]);
  results.forwarding.rounds.push(round);
  log(`forwarding round ${r + 1}: ${JSON.stringify(round)}`);
}

log('extra: 10 k records/s as 100-record requests; p99 at half the maximum; both cores');
{
  const hundred = prepare({ name: 'logs protobuf 100', signal: 'logs', format: 'otlp', encoding: 'protobuf', records: 100 });
  for (const pipeline of ['nop', 'store']) {
    const server = await startOtelgate(pipeline, OTELGATE_CORE);
    // At 100 requests a second the code takes seconds to be compiled hot: a longer warm-up and window.
    const steady = await measure(server, hundred, { rate: 100, connections: 4, timing: QUICK ? {} : { warmupMs: 5000, durationMs: 5000 } });
    steady.peakRssMiB = peakRssMiB(server.pid);
    results.extra[`steady 10k/s → ${pipeline}`] = steady;
    const max = results.workloads['logs protobuf'].pipelines[pipeline].requestsPerSecond;
    results.extra[`half max → ${pipeline}`] = await measure(server, workloads[0], { rate: max / 2 });
    await server.stop();
  }
  results.extra['small requests at 1,000/s'] = await smallRequests();

  // service.workers: 2, one per core, with the load generator unpinned beside them; each round
  // measures one core and both back to back, and the ratio is the median of the rounds' ratios.
  // The two workers start anew each round: where the scheduler first puts them and the generator
  // lasts as long as they run, and measured 0.95× in one start and 1.6-1.9× in others.
  const one = await startOtelgate('nop', OTELGATE_CORE);
  const rounds = [];
  for (let r = 0; r < TIMING.repeats; r++) {
    const single = await load(one, workloads[0], withDefaults(one, {}));
    const both = await startOtelgate('nop', undefined, 2);
    const double = await load(both, workloads[0], withDefaults(both, { core: null }));
    await both.stop();
    rounds.push({ single, double, ratio: double.recordsPerSecond / single.recordsPerSecond });
  }
  // No CPU figures: the process measured would be the primary, not its workers.
  const { cpuPerMillion, cpuShare, ...both } = summarize(rounds.map((round) => round.double), workloads[0]);
  results.extra['both cores → nop'] = {
    ...both,
    oneCoreRecordsPerSecond: median(rounds.map((round) => round.single.recordsPerSecond)),
    ratio: median(rounds.map((round) => round.ratio)),
    ratios: rounds.map((round) => round.ratio),
  };
  await one.stop();
}

// ---- report ----
const k = (n) => (n >= 100_000 ? `${Math.round(n / 1000)} k` : n >= 10_000 ? `${(n / 1000).toFixed(1)} k` : `${Math.round(n)}`);
const share = (ratio) => `${Math.round(100 * ratio)} %`;
const ms = (n) => n.toFixed(n < 10 ? 2 : 1);
const rows = [];
for (const [name, w] of Object.entries(results.workloads)) {
  for (const [pipeline, m] of Object.entries(w.pipelines)) {
    rows.push([
      name,
      pipeline,
      k(m.recordsPerSecond),
      k(m.requestsPerSecond),
      ms(m.p50),
      ms(m.p99),
      m.cpuPerMillion.toFixed(2),
      Math.round(m.peakRssMiB),
      `${k(w.ceilings.decode)} (${share(m.ratios.decode)})`,
      PIPELINES[pipeline].store ? `${k(w.ceilings.insert)} (${share(m.ratios.insert)})` : '',
      `${k(w.ceilings.bareRequestsPerSecond)} (${share(m.ratios.bare)})`,
      m.notOk.join(' '),
    ]);
  }
}
const header = ['workload', 'pipeline', 'records/s', 'req/s', 'p50 ms', 'p99 ms', 'CPU s/M rec', 'peak RSS MiB', 'decode ceiling (b)', 'insert ceiling (c)', 'bare server req/s (a)', 'not 2xx'];
const table = [header, header.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');

const w0 = results.workloads['logs protobuf'];
/** The highest peak RSS of the workloads `chosen` takes, and where it was. */
function peakRss(chosen) {
  const peaks = Object.entries(results.workloads)
    .filter(([workload]) => chosen(workload))
    .flatMap(([workload, w]) => Object.entries(w.pipelines).map(([pipeline, m]) => ({ mb: m.peakRssMiB * 1.048576, where: `${workload} → ${pipeline}` })));
  const top = peaks.reduce((a, b) => (b.mb > a.mb ? b : a));
  return `${Math.round(top.mb)} MB (${top.where})`;
}
const wj = results.workloads['logs JSON'];
const wm = results.workloads['metrics protobuf'];
const ws = results.workloads['logs protobuf small'];
const e = results.extra;
const targets = [
  ['OTLP logs protobuf → nop ≥ 70 % of the decode ceiling (b)', share(w0.pipelines.nop.ratios.decode)],
  ['… and ≥ 2× the same pipeline on protobufjs decoding', `${w0.pipelines.nop.ratios.protobufjsServer.toFixed(2)}× (protobufjs server ${k(w0.ceilings.protobufjsServerRecordsPerSecond)} rec/s; in-process protobufjs ${k(w0.ceilings.protobufjs)} vs own ${k(w0.ceilings.decode)})`],
  ['OTLP JSON logs → nop ≥ 70 % of the JSON decode ceiling', share(wj.pipelines.nop.ratios.decode)],
  ['OTLP JSON logs decoded (ceiling b) ≥ 1.6× JSON.parse alone on the same body (issue 17)', `${(wj.ceilings.decode / wj.ceilings.jsonParse).toFixed(2)}× (${k(wj.ceilings.decode)} against ${k(wj.ceilings.jsonParse)} records/s)`],
  ['OTLP JSON logs → nop ≥ 55 % of the same export as protobuf → nop (issue 17)', share(wj.pipelines.nop.recordsPerSecond / w0.pipelines.nop.recordsPerSecond)],
  ...['traces JSON', 'metrics JSON', 'simple JSON'].map((name) => {
    const c = results.workloads[name].ceilings;
    if (name === 'simple JSON') {
      return [
        'The simple JSON endpoint decoded ≥ 1.4× the decoder it replaced (bench/simple-before.mjs: JSON.parse, then mapping) (issue 17)',
        `${(c.decode / c.before).toFixed(2)}× (${k(c.decode)} against ${k(c.before)} records/s; JSON.parse alone ${k(c.jsonParse)})`,
      ];
    }
    return [`OTLP ${name} decoded ≥ 1.4× JSON.parse alone on the same body (issue 17)`, `${(c.decode / c.jsonParse).toFixed(2)}× (${k(c.decode)} against ${k(c.jsonParse)} records/s)`];
  }),
  ['OTLP logs protobuf → store ≥ 100 k records/s', `${k(w0.pipelines.store.recordsPerSecond)} rec/s`],
  ['… and ≥ 60 % of the insert ceiling (c)', share(w0.pipelines.store.ratios.insert)],
  ['Small requests (10 records) → nop ≥ 60 % of the bare server req/s', share(ws.pipelines.nop.ratios.bare)],
  (() => {
    const s = e['small requests at 1,000/s'];
    const ratio = (name) => `${median(s[name].ratios).toFixed(2)}× (${s[name].microsPerRequest.toFixed(0)} µs; rounds ${s[name].ratios.map((x) => `${x.toFixed(2)}×`).join(', ')})`;
    return [`CPU per 10-record request at 1,000 requests/s, the shipped pipeline ≤ 1.25× the bare server's (${s.bare.microsPerRequest.toFixed(0)} µs) (issue 17)`, `${ratio('default')}; with nop in place of the store ${ratio('default nop')}; with the store's commit_interval at 5ms ${ratio('default commit_interval 5ms')}`];
  })(),
  ['10 k rec/s as 100-record requests (5 s warm-up, 5 s window) → store: CPU ≤ 15 % of a core, RSS ≤ 120 MiB', `${Math.round(100 * e['steady 10k/s → store'].cpuShare)} % CPU, ${Math.round(e['steady 10k/s → store'].peakRssMiB)} MiB (nop: ${Math.round(100 * e['steady 10k/s → nop'].cpuShare)} %, ${Math.round(e['steady 10k/s → nop'].peakRssMiB)} MiB)`],
  ['p99 at half the maximum throughput < 20 ms', `nop ${ms(e['half max → nop'].p99)} ms, store ${ms(e['half max → store'].p99)} ms`],
  ['Peak RSS under sustained full load < 250 MB', peakRss(() => true)],
  ['Peak RSS under full OTLP JSON load (logs, traces, metrics; nop and store) < 250 MB (issue 17)', peakRss((workload) => /^(logs|traces|metrics) JSON$/.test(workload))],
  ['Both cores (service.workers: 2, load generator on the same cores) ≥ 1.6× one core (logs protobuf → nop, rounds of one then the other)', `${e['both cores → nop'].ratio.toFixed(2)}× (${k(e['both cores → nop'].recordsPerSecond)} vs ${k(e['both cores → nop'].oneCoreRecordsPerSecond)} rec/s; rounds ${e['both cores → nop'].ratios.map((x) => `${x.toFixed(2)}×`).join(', ')})`],
];
// The forwarding targets: met or not on the median, with the range of the rounds.
const MB = (mib) => mib * 1.048576;
const verdict = (values, met) => (met(median(values)) ? 'met' : '**not met**');
const spread = (values, format) => (values.length === 1 ? format(values[0]) : `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`);
const fwd = w0.pipelines.otlp_http;
const fr = results.forwarding.rounds;
const forwardingRss = fr.map((round) => MB(round.forwarding.peakRssMiB));
const growth = fr.map((round) => MB(round.outage.growthMiB));
const drainRatios = fr.map((round) => round.drain.ratio);
// The last requests wait out their retry backoff: the rate to 99 % of the records shows the drain without that wait.
const drainRatios99 = fr.map((round) => (0.99 * round.drain.queued) / round.drain.at99S / round.forwarding.recordsPerSecond);
const mbText = (n) => `${Math.round(n)} MB`;
targets.push(
  [
    'OTLP logs protobuf → otlp_http (queue on disk) → sink: records/s delivered ≥ 50 % of the same load → nop',
    ['otlp_http', 'otlp_http zstd', 'otlp_http none']
      .map((id) => {
        const p = w0.pipelines[id];
        const label = { otlp_http: 'gzip (the default)', 'otlp_http zstd': '`compression: zstd`', 'otlp_http none': '`compression: none`' }[id];
        return `${label}: ${verdict(p.nopRatios, (x) => x >= 0.5)}, ${spread(p.nopRatios, share)}, ${k(p.recordsPerSecond)} rec/s`;
      })
      .join('; ') + `; nop ${k(w0.pipelines.nop.recordsPerSecond)} rec/s`,
  ],
  [
    'OTLP logs protobuf over gRPC (1,000 records a message) → nop ≥ 70 % of the same load over HTTP/protobuf → nop',
    `${verdict(w0.pipelines['nop grpc'].nopRatios, (x) => x >= 0.7)}: ${spread(w0.pipelines['nop grpc'].nopRatios, share)}, ${k(w0.pipelines['nop grpc'].recordsPerSecond)} rec/s, ${w0.pipelines['nop grpc'].cpuPerMillion.toFixed(2)} s CPU per M records (HTTP: ${w0.pipelines.nop.cpuPerMillion.toFixed(2)})`,
  ],
  [
    'OTLP logs protobuf → otlp exporter (gRPC, queue on disk) → gRPC sink: records/s delivered ≥ 50 % of the same load → nop',
    ['otlp grpc', 'otlp grpc none']
      .map((id) => {
        const p = w0.pipelines[id];
        const label = id === 'otlp grpc' ? 'gzip (the default)' : '`compression: none`';
        return `${label}: ${verdict(p.nopRatios, (x) => x >= 0.5)}, ${spread(p.nopRatios, share)}, ${k(p.recordsPerSecond)} rec/s, ${p.cpuPerMillion.toFixed(2)} s CPU per M records`;
      })
      .join('; '),
  ],
  [
    'OTLP logs protobuf → filter (3 conditions) → attributes (2 actions) → transform (3 statements), every record changed → nop: ≥ 75 % of the same load → nop (and filter alone, for reference)',
    `${verdict(w0.pipelines['filter attributes transform'].nopRatios, (x) => x >= 0.75)}: ${spread(w0.pipelines['filter attributes transform'].nopRatios, share)}, ${k(w0.pipelines['filter attributes transform'].recordsPerSecond)} rec/s, ${w0.pipelines['filter attributes transform'].cpuPerMillion.toFixed(2)} s CPU per M records; filter alone ${spread(w0.pipelines.filter.nopRatios, share)} (nop: ${w0.pipelines.nop.cpuPerMillion.toFixed(2)} s CPU per M records)`,
  ],
  [
    'OTLP logs protobuf → redaction (3 blocked_values, every key allowed) → nop: ≥ 60 % of the same load → nop',
    `${verdict(w0.pipelines.redaction.nopRatios, (x) => x >= 0.6)}: ${spread(w0.pipelines.redaction.nopRatios, share)}, ${k(w0.pipelines.redaction.recordsPerSecond)} rec/s, ${w0.pipelines.redaction.cpuPerMillion.toFixed(2)} s CPU per M records`,
  ],
  [
    'OTLP logs protobuf → loki (queue on disk) → sink: records/s delivered ≥ 50 % of the same load → nop',
    `${verdict(w0.pipelines.loki.nopRatios, (x) => x >= 0.5)}: ${spread(w0.pipelines.loki.nopRatios, share)}, ${k(w0.pipelines.loki.recordsPerSecond)} rec/s, ${w0.pipelines.loki.cpuPerMillion.toFixed(2)} s CPU per M records; peak RSS ${mbText(MB(w0.pipelines.loki.peakRssMiB))}`,
  ],
  [
    'OTLP metrics protobuf (1,000 points a request: gauges, counters, histograms) → prometheusremotewrite (queue on disk) → sink: records/s delivered ≥ 40 % of the same load → nop',
    `${verdict(wm.pipelines.prometheusremotewrite.nopRatios, (x) => x >= 0.4)}: ${spread(wm.pipelines.prometheusremotewrite.nopRatios, share)}, ${k(wm.pipelines.prometheusremotewrite.recordsPerSecond)} points/s, ${wm.pipelines.prometheusremotewrite.cpuPerMillion.toFixed(2)} s CPU per M points; peak RSS ${mbText(MB(wm.pipelines.prometheusremotewrite.peakRssMiB))}`,
  ],
  ['… otelgate\'s peak RSS < 250 MB (a fresh otelgate each round)', `${verdict(forwardingRss, (x) => x < 250)}: ${spread(forwardingRss, mbText)}`],
  [
    `The sink stopped for ${OUTAGE.downMs / 1000} s under the same load: RSS growth < 50 MB`,
    `${verdict(growth, (x) => x < 50)}: ${spread(growth, mbText)}; queue on disk ${spread(fr.map((round) => round.outage.queueBytes / 1e6), mbText)} at the end`,
  ],
  [
    `A queue of ${DRAIN_REQUESTS / 1000} M records drains to the sink at ≥ 80 % of the forwarding rate (same round)`,
    `${verdict(drainRatios, (x) => x >= 0.8)}: ${spread(drainRatios, share)}; ${k(median(fr.map((round) => round.drain.recordsPerSecond)))} vs ${k(median(fr.map((round) => round.forwarding.recordsPerSecond)))} rec/s; to 99 % of the records ${spread(drainRatios99, share)}`,
  ],
);
const fmt1 = (n) => n.toFixed(1);
const forwardingHeader = ['round', 'forwarding rec/s (accepted)', 'peak RSS MiB', 'CPU: otelgate, sink, load core busy', 'drain: queued (on disk)', 'first, 99 %, last record s', 'drain rec/s (of forwarding)', 'otelgate CPU in drain', 'outage: RSS MiB before → peak (end)', 'queue on disk', 'accepted, not 2xx'];
const forwardingRows = fr.map((round, i) => [
  i + 1,
  `${k(round.forwarding.recordsPerSecond)} (${k(round.forwarding.acceptedRecordsPerSecond)})`,
  Math.round(round.forwarding.peakRssMiB),
  `${share(round.forwarding.cpuShare)}, ${share(round.forwarding.sinkCpuShare)}, ${share(round.forwarding.loadCoreBusy)}`,
  `${k(round.drain.queued)} (${Math.round(round.drain.queueBytes / 1e6)} MB)`,
  `${fmt1(round.drain.firstS)}, ${fmt1(round.drain.at99S)}, ${fmt1(round.drain.seconds)}`,
  `${k(round.drain.recordsPerSecond)} (${share(round.drain.ratio)})`,
  share(round.drain.cpuShare),
  `${Math.round(round.outage.rssBeforeMiB)} → ${Math.round(round.outage.rssPeakMiB)} (${Math.round(round.outage.rssEndMiB)})`,
  `${Math.round(round.outage.queueBytesBefore / 1e6)} → ${Math.round(round.outage.queueBytes / 1e6)} MB`,
  `${k(round.outage.accepted)}, ${round.outage.notOk.join(' ') || 'none'}`,
]);
const forwardingTable = [forwardingHeader, forwardingHeader.map(() => '---'), ...forwardingRows].map((r) => `| ${r.join(' | ')} |`).join('\n');
const targetTable = ['| target | measured |', '| --- | --- |', ...targets.map(([t, m]) => `| ${t} | ${m} |`)].join('\n');

const machine = `${results.machine.cores} cores (${results.machine.cpu}), Node ${results.machine.node}, ${results.date.slice(0, 10)}`;
const markdown = `# Benchmark results

Latest \`npm run bench\` on this machine: ${machine}. otelgate on core ${OTELGATE_CORE}, the load generator
(bench/loadgen.mjs, ${CONNECTIONS} keep-alive connections) on core ${LOAD_CORE}; each figure is the median of ${TIMING.repeats}
runs of ${TIMING.durationMs / 1000} s after ${TIMING.warmupMs / 1000} s of warm-up. Ceilings are measured on the same core in the
same rounds as otelgate, back to back, and each percentage is the median of the per-round ratios (the machine is
shared; figures minutes apart differ by a quarter): (a) a bare Node HTTP server reading the body and answering \`{}\`; (b) decoding the same body to rows in process
(otelgate's decoder; for a JSON body also \`JSON.parse\` alone, which makes no row, in the targets); (c) inserting the same rows into node:sqlite with the store's schema and indexes, one
1,000-row batch per transaction. Percentages are otelgate's share of the ceiling. CPU is otelgate's own
(utime + stime from /proc) over the measured window. otelgate and the ceilings on its core run with
npm start's V8 flags (\`${START_FLAGS.join(' ')}\`). Pipelines: \`nop\` and \`store\` are the receiver and that exporter
alone; \`default\` is pipelines/default.yaml as shipped (memory_limiter, store, own metrics, health_check) on free
loopback ports, run on the logs protobuf workload. Both cores: \`service.workers: 2\`, unpinned, the load generator too.
\`otlp_http\`: the receiver and the otlp_http exporter, its sending queue on disk (a file_storage extension in the
run's directory), every other setting its default (gzip, 10 consumers, 1,000 requests), forwarding to a sink
(bench/sink.mjs: reads each body, inflates it, counts its records, answers 200) pinned to the load generator's core;
\`otlp_http zstd\` and \`otlp_http none\`: the same with \`compression: zstd\` (the Collector's default zstd speed, the
fastest) and \`compression: none\`. \`loki\`: the receiver and the loki exporter, every setting its default (snappy
protobuf, raw lines, structured metadata) but its queue, on disk, forwarding to the same sink (which counts the
entries of each push and answers 204). \`prometheusremotewrite\`: the same on the metrics workload, every setting its default,
to the same sink (which counts one sample per data point, the \`_count\` of a histogram, and answers 204).

## Targets

${targetTable}

## Every workload

${table}

The \`otlp_http\` row: records/s delivered to the sink, end to end (the records the clients were answered 200 for in
the measured run, over the time from its first request to the last of them at the sink); the same load to \`nop\` in
the same round: ${spread(fwd.nopRatios, share)}; the clients alone were answered ${k(fwd.acceptedRecordsPerSecond)} rec/s (the queue takes the
difference). otelgate used ${share(fwd.cpuShare)} of its core over those times, the sink ${share(fwd.sinkCpuShare)} of the other, which was ${share(fwd.loadCoreBusy)} busy in all
(load generator, sink, anything else on the machine); ${fwd.duplicates} records arrived twice.

## Forwarding rounds

Each round: a fresh otelgate with \`otlp_http\` forwards the logs protobuf load to its sink (records/s end to end as
above, the clients' 2xx rate in brackets; its peak RSS then); the sink stops, ${DRAIN_REQUESTS} requests of 1,000 records are
queued, the sink starts again on the same port and the harness waits until it has every record (times from the sink's
start; the drain rate is all the records over the time to the last); then another otelgate, whose queue holds
the whole outage (\`queue_size: 100000\`), takes the load ${OUTAGE.beforeMs / 1000} s with its sink up and ${OUTAGE.downMs / 1000} s with it stopped (RSS sampled every
100 ms: the highest before, the highest while down, the last).

${forwardingTable}
`;
mkdirSync(join(HERE, 'out'), { recursive: true });
writeFileSync(join(HERE, 'out', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
if (!QUICK) writeFileSync(join(HERE, 'RESULTS.md'), markdown);
process.stdout.write(`${markdown}\n`);
log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
rmSync(work, { recursive: true, force: true });
