// Not part of `npm run bench`: the instructions a record of a whole otelgate, counted under
// valgrind's callgrind, for comparing a pipeline with nop on a machine too noisy to time them (see
// docs/architecture.md, "Counting instructions"). Needs Debian's valgrind and a build.
//
//   PATH=node_modules/.bin:$PATH node bench/server-instructions.mjs [--pipeline=loki] [--warm=30] [--requests=100]
//
// otelgate runs under callgrind (`--single-threaded`, npm start's V8 flags) with the ingest
// receiver and one exporter: nop, or loki with its queue on disk and every other setting its
// default, sending to the bench's sink (bench/sink.mjs, not counted). It is sent the bench's
// 1,000-record OTLP logs protobuf body, one request at a time: `--warm` requests, then 20 more in
// one run and `--requests` + 20 in another; the difference over the added records is the cost of a
// record, start-up, warm-up and shutdown left out. Kernel work (socket and disk writes) is not
// counted. Each run takes some minutes.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { otlpProtobuf } from './payloads.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { generateKey } = await import(join(ROOT, 'dist/auth/key.js'));
const { writeKeysFile } = await import(join(ROOT, 'dist/auth/keysfile.js'));

const { values } = parseArgs({
  options: {
    pipeline: { type: 'string', default: 'loki' },
    warm: { type: 'string', default: '30' },
    requests: { type: 'string', default: '100' },
  },
});
if (!['nop', 'loki'].includes(values.pipeline)) throw new Error('--pipeline: nop or loki');
const warm = Number(values.warm);
const requests = Number(values.requests);
const BASE = 20;
const body = otlpProtobuf('logs', 1000);

/** Starts a process and resolves once `ready(output)` gives a port. */
function started(command, args, ready) {
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const port = new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      const found = ready(output);
      if (found !== undefined) resolve(found);
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => reject(new Error(`${command} exited ${code}:\n${output.slice(-2000)}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', () => resolve(output)));
  return { child, port, exited };
}

/** Callgrind's total for one otelgate that is sent `count` requests. */
async function run(count) {
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-server-instructions-'));
  const sink = started(process.execPath, [join(ROOT, 'bench/sink.mjs'), '0'], (o) => /listening (\d+)/.exec(o)?.[1]);
  try {
    const sinkPort = await sink.port;
    const key = generateKey();
    writeKeysFile(join(dir, 'keys.yaml'), [{ id: key.id, project: 'bench', sha256: key.sha256 }]);
    const exporter = values.pipeline === 'nop' ? 'nop: {}' : `loki: {endpoint: "http://127.0.0.1:${sinkPort}", sending_queue: {storage: file_storage}}`;
    writeFileSync(
      join(dir, 'config.yaml'),
      `extensions: {apikeyauth: {keys_file: ${join(dir, 'keys.yaml')}}, file_storage: {directory: ${join(dir, 'queue')}}}\n` +
        `receivers: {ingest: {endpoint: "127.0.0.1:0", auth: {authenticator: apikeyauth}}}\nexporters: {${exporter}}\n` +
        `service:\n  extensions: [apikeyauth, file_storage]\n  pipelines:\n    logs: {receivers: [ingest], exporters: [${values.pipeline}]}\n`,
    );
    const flags = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start.split(' ').filter((word) => word.startsWith('--'));
    const out = join(dir, 'callgrind.out');
    const server = started('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, '--single-threaded', ...flags, 'dist/cli.js', 'run', '--config', join(dir, 'config.yaml')], (o) =>
      o.includes('Everything is ready') ? /"endpoint":"127\.0\.0\.1:(\d+)","tls"/.exec(o)?.[1] : undefined,
    );
    const port = await server.port;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const post = () =>
      new Promise((resolve, reject) => {
        const request = http.request({ host: '127.0.0.1', port, path: '/v1/logs', method: 'POST', agent, headers: { 'content-type': 'application/x-protobuf', authorization: `Bearer ${key.key}` } }, (response) => {
          response.resume();
          response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`answered ${response.statusCode}`))));
        });
        request.on('error', reject);
        request.end(body);
      });
    for (let i = 0; i < count; i++) await post();
    agent.destroy();
    // What was answered is delivered before the count ends, so that sending is counted too.
    if (values.pipeline !== 'nop') {
      for (;;) {
        const stats = await fetch(`http://127.0.0.1:${sinkPort}/stats`).then((response) => response.json());
        if (stats.records >= count * 1000) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    server.child.kill('SIGTERM');
    const output = await server.exited;
    const collected = /Collected : (\d+)/.exec(output);
    if (collected === null) throw new Error(`callgrind gave no total:\n${output.slice(-2000)}`);
    return Number(collected[1]);
  } finally {
    sink.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

const base = await run(warm + BASE);
const more = await run(warm + BASE + requests);
console.log(`${values.pipeline}: ${Math.round((more - base) / (requests * 1000))} instructions a record (${requests} requests of 1,000 records after ${warm + BASE}; ${more} and ${base} in all)`);
