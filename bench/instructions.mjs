// Not part of `npm run bench`: the instructions a record of one piece of in-process work, counted
// under valgrind's callgrind, for comparing choices on a machine too noisy to time them (see
// docs/architecture.md, "Counting instructions"). Needs Debian's valgrind and a build.
//
//   node bench/instructions.mjs [--work=chain] [--batches=100] [--warm=100] [--dist=dist] [--top=25]
//
// The work runs twice in a Node under callgrind (`--single-threaded`, so that compiling and
// collecting happen on the counted thread): `--warm` batches alone, then those and `--batches`
// more; the difference over the added records is the cost of a record. Each batch is the bench's
// 1,000-record OTLP logs protobuf body decoded to rows, then handed to the work:
//   decode                           nothing more (the decoding alone)
//   chain                            filter → attributes → transform, as the bench's chain pipeline
//   filter, attributes, transform, redaction   that processor alone (bench/processors.mjs)
//   loki                             the loki exporter's encoder, every setting its default
// The functions that took the most in the second run are listed, JIT code named from Node's
// /tmp/perf-<pid>.map (`--perf-basic-prof`). Runs of one build differ by 0.2-1 %.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const WORKS = ['decode', 'chain', 'filter', 'attributes', 'transform', 'redaction', 'loki'];

if (process.env.INSTRUCTIONS_CHILD === '1') await work();
else await main();

async function main() {
  const { values } = parseArgs({
    options: {
      work: { type: 'string', default: 'chain' },
      batches: { type: 'string', default: '100' },
      warm: { type: 'string', default: '100' },
      dist: { type: 'string', default: 'dist' },
      top: { type: 'string', default: '25' },
    },
  });
  if (!WORKS.includes(values.work)) throw new Error(`--work: one of ${WORKS.join(', ')}`);
  const dist = resolve(values.dist);
  if (!existsSync(join(dist, 'cli.js'))) throw new Error(`${dist}: no build there (npm run build)`);
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-instructions-'));
  try {
    const run = (batches) => {
      const out = join(dir, `callgrind.${batches}.out`);
      const env = { ...process.env, INSTRUCTIONS_CHILD: '1', WORK: values.work, WARM: values.warm, BATCHES: String(batches), DIST: dist };
      const args = ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, '--single-threaded', '--perf-basic-prof', process.argv[1]];
      // In the scratch folder: --perf-basic-prof also writes V8's log to the working folder.
      const done = spawnSync('valgrind', args, { env, cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 });
      if (done.error !== undefined) throw new Error(`valgrind: ${done.error.message} (apt-get install -y valgrind)`);
      const collected = /Collected : (\d+)/.exec(done.stderr);
      if (done.status !== 0 || collected === null) throw new Error(`the work under valgrind failed:\n${done.stderr.slice(-2000)}`);
      return { total: Number(collected[1]), out };
    };
    const base = run(0);
    const more = run(Number(values.batches));
    const records = Number(values.batches) * 1000;
    console.log(`${values.work}: ${Math.round((more.total - base.total) / records)} instructions a record (${records} records after ${values.warm} batches of warm-up; ${more.total} and ${base.total} in all)`);
    console.log(`where the second run's instructions went (the warm-up's included):`);
    for (const [name, count] of top(more.out, Number(values.top))) console.log(`${(count / 1e6).toFixed(1).padStart(10)} M  ${name}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The functions with the most instructions in a callgrind output, JIT code named from the process's perf map. */
function top(out, count) {
  const pid = /^pid: (\d+)/m.exec(readFileSync(out, 'utf8'))?.[1];
  const mapFile = `/tmp/perf-${pid}.map`;
  const symbols = existsSync(mapFile)
    ? readFileSync(mapFile, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => {
          const [start, size, ...name] = line.split(' ');
          return { start: parseInt(start, 16), end: parseInt(start, 16) + parseInt(size, 16), name: name.join(' ') };
        })
        .sort((a, b) => a.start - b.start)
    : [];
  const nameOf = (address) => {
    let lo = 0;
    let hi = symbols.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (symbols[mid].start <= address) lo = mid + 1;
      else hi = mid - 1;
    }
    const symbol = symbols[hi];
    return symbol !== undefined && address < symbol.end ? symbol.name : `0x${address.toString(16)}`;
  };
  const annotated = execFileSync('callgrind_annotate', ['--threshold=100', out], { encoding: 'utf8', maxBuffer: 256 << 20 });
  const totals = new Map();
  for (const line of annotated.split('\n')) {
    const match = /^\s*([\d,]+) \([ \d.]+%\)\s+\?\?\?:(.*?) \[/.exec(line);
    if (match === null) continue;
    const jit = /^0x([0-9a-f]+)$/.exec(match[2]);
    const name = jit === null ? match[2] : nameOf(parseInt(jit[1], 16));
    totals.set(name, (totals.get(name) ?? 0) + Number(match[1].replaceAll(',', '')));
  }
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, count);
}

/** The child: WARM + BATCHES batches of the work, under valgrind. */
async function work() {
  const dist = process.env.DIST;
  const { otlpProtobuf } = await import('./payloads.mjs');
  const { decodeLogsProto } = await import(`${dist}/otlp/protobuf/logs.js`);
  const { RecordBudget } = await import(`${dist}/otlp/result.js`);
  const { batchOf } = await import(`${dist}/model/batch.js`);
  const body = otlpProtobuf('logs', 1000);
  const decoded = () => batchOf('logs', 'bench', 1n, decodeLogsProto(body, new RecordBudget(100_000)).rows, true);
  const consume = await consumer(process.env.WORK, dist);
  const batches = Number(process.env.WARM) + Number(process.env.BATCHES);
  for (let i = 0; i < batches; i++) await consume(decoded());
}

/** What the work does with each decoded batch. */
async function consumer(name, dist) {
  if (name === 'decode') return async () => {};
  if (name === 'loki') {
    const { PushEncoder } = await import(`${dist}/exporters/loki/encode.js`);
    const { lokiSchema } = await import(`${dist}/exporters/loki/config.js`);
    const { Value } = await import('typebox/value');
    const encoder = new PushEncoder(Value.Default(lokiSchema, { endpoint: 'http://127.0.0.1:1' }));
    return async (batch) => void encoder.encode(batch.rows, batch.receivedUnixNano);
  }
  const { parse } = await import('yaml');
  const { default: pino } = await import('pino');
  const { Value } = await import('typebox/value');
  const { PROCESSORS } = await import('./processors.mjs');
  const { builtinRegistry } = await import(`${dist}/components.js`);
  const { consumeContext } = await import(`${dist}/runtime/component.js`);
  const settings = parse(PROCESSORS).processors;
  const registry = builtinRegistry();
  const logger = pino({ level: 'silent' });
  const context = (id) => ({ id, kind: 'processor', logger, host: { exporters: () => new Map() }, telemetry: { meter: () => undefined, enabled: () => false }, signals: ['logs'], worker: undefined, stopping: new AbortController().signal });
  const make = (type, next) => {
    const factory = registry.get('processor', type);
    return factory.create(Value.Default(factory.schema, settings[type]), context(type), next);
  };
  const nop = { consume: () => Promise.resolve() };
  const head = name === 'chain' ? make('filter', make('attributes', make('transform', nop))) : make(name, nop);
  const ctx = consumeContext();
  return (batch) => head.consume(batch, ctx);
}
