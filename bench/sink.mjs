// The backend the remote exporters forward to in the benchmark: a node:http server on loopback
// that reads each body, inflates it (gzip, as otlp_http sends by default, or zstd), counts the log
// records in it and answers 200 with an empty ExportLogsServiceResponse; a Loki push
// (/loki/api/v1/push, snappy protobuf) it unpacks, counts its entries and answers 204, as Loki
// does; a remote write (/api/v1/write) likewise, counting one sample per OTLP data point (the
// samples of series not named *_bucket, *_sum or target_info). It counts, so that the harness
// measures what arrived, not what otelgate accepted. Prints "listening <port>" once it is;
// GET /stats answers its counts (times in epoch milliseconds, comparable with the harness's and
// the load generator's; CPU in seconds). OTLP/gRPC logs (the otlp exporter) it takes on a port of
// its own, counted likewise: "listening <port> grpc <port>".
// Usage: node sink.mjs [port]   (0 or none: any free port; a given one: the same backend again)
import { createServer } from 'node:http';
import { Server as GrpcServer, ServerCredentials } from '@grpc/grpc-js';
import { gunzipSync, zstdDecompressSync } from 'node:zlib';
import snappyjs from 'snappyjs';

const epochMs = () => performance.timeOrigin + performance.now();
const stats = { requests: 0, records: 0, bytes: 0, startedMs: 0, firstMs: 0, firstRecords: 0, lastMs: 0 };

// The sink shares the load generator's core: it reads what it counts without allocating (a cursor,
// not a [value, offset] pair per varint; a label's name compared as bytes), so that the load it
// takes from that core is small beside the load generator's.
let cursor = 0;

/** The protobuf varint at `cursor`, which it moves past it. Lengths and tags here fit in 32 bits' worth of a double. */
function varint(buf) {
  let value = 0;
  let scale = 1;
  for (;;) {
    const byte = buf[cursor++];
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
    scale *= 128;
  }
}

/** Calls `visit(field, start, end)` for each length-delimited field in buf[start, end); skips the others. */
function fields(buf, start, end, visit) {
  let at = start;
  while (at < end) {
    cursor = at;
    const tag = varint(buf);
    const wire = tag & 7;
    if (wire === 2) {
      const length = varint(buf);
      const from = cursor;
      visit(tag >>> 3, from, from + length);
      at = from + length;
    } else if (wire === 0) {
      varint(buf);
      at = cursor;
    } else if (wire === 1) at = cursor + 8;
    else if (wire === 5) at = cursor + 4;
    else throw new Error(`wire type ${wire} in a request`);
  }
}

/** Loki's PushRequest → streams (1) → entries (2). */
function countLokiEntries(body) {
  let entries = 0;
  fields(body, 0, body.length, (field, s, e) => {
    if (field !== 1) return;
    fields(body, s, e, (field) => {
      if (field === 2) entries++;
    });
  });
  return entries;
}

const NAME = Buffer.from('__name__');
function isNameLabel(body, s, e) {
  if (e - s !== NAME.length) return false;
  for (let i = 0; i < NAME.length; i++) if (body[s + i] !== NAME[i]) return false;
  return true;
}

const NOT_A_POINT = /(_bucket|_sum)$|^target_info$/;

/** WriteRequest → timeseries (1) → labels (1: name 1, value 2) and samples (2): samples of the series that stand for one data point each. */
function countPointSamples(body) {
  let points = 0;
  fields(body, 0, body.length, (field, s, e) => {
    if (field !== 1) return;
    let name = '';
    let samples = 0;
    fields(body, s, e, (field, s, e) => {
      if (field === 2) samples++;
      else if (field === 1) {
        let isName = false;
        fields(body, s, e, (field, s, e) => {
          if (field === 1) isName = isNameLabel(body, s, e);
          else if (field === 2 && isName) name = body.toString('latin1', s, e);
        });
      }
    });
    if (!NOT_A_POINT.test(name)) points += samples;
  });
  return points;
}

/** ExportLogsServiceRequest → resource_logs (1) → scope_logs (2) → log_records (2). */
function countLogRecords(body) {
  let records = 0;
  fields(body, 0, body.length, (field, s, e) => {
    if (field !== 1) return;
    fields(body, s, e, (field, s, e) => {
      if (field !== 2) return;
      fields(body, s, e, (field) => {
        if (field === 2) records++;
      });
    });
  });
  return records;
}

function counted(records, bytes) {
  const now = epochMs();
  if (stats.requests === 0) Object.assign(stats, { firstMs: now, firstRecords: records });
  stats.lastMs = now;
  stats.requests++;
  stats.records += records;
  stats.bytes += bytes;
}

const http = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  if (req.method === 'GET') {
    const cpu = process.cpuUsage();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...stats, nowMs: epochMs(), cpuSeconds: (cpu.user + cpu.system) / 1e6 }));
    return;
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const encoding = req.headers['content-encoding'];
    const body = encoding === 'gzip' ? gunzipSync(raw) : encoding === 'zstd' ? zstdDecompressSync(raw) : raw;
    const loki = req.url === '/loki/api/v1/push';
    const remoteWrite = req.url === '/api/v1/write';
    const records = loki ? countLokiEntries(snappyjs.uncompress(body)) : remoteWrite ? countPointSamples(Buffer.from(snappyjs.uncompress(body))) : countLogRecords(body);
    counted(records, raw.length);
    res.writeHead(loki || remoteWrite ? 204 : 200, loki || remoteWrite ? {} : { 'content-type': 'application/x-protobuf', 'content-length': '0' });
    res.end();
  });
});
// The logs service of OTLP/gRPC, messages as bytes (grpc-js inflates gzip ones).
const grpc = new GrpcServer({ 'grpc.max_receive_message_length': -1 });
const same = (bytes) => bytes;
grpc.addService(
  { Export: { path: '/opentelemetry.proto.collector.logs.v1.LogsService/Export', requestStream: false, responseStream: false, requestSerialize: same, requestDeserialize: same, responseSerialize: same, responseDeserialize: same } },
  {
    Export: (call, done) => {
      counted(countLogRecords(call.request), call.request.length);
      done(null, Buffer.alloc(0));
    },
  },
);
// Windows of 4 MiB, as otelgate's otlp receiver sets them (a grpc-go server grows its own to
// fit): grpc-js's 64 KiB would make the exporter wait for window updates, not for the backend.
const WINDOW = 4 * 1024 * 1024;
grpc.commonServerOptions.settings = { ...grpc.commonServerOptions.settings, initialWindowSize: WINDOW };
const grpcPort = await new Promise((resolve, reject) => grpc.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve(port))));

for (const server of grpc.http2Servers.keys()) server.on('session', (session) => session.setLocalWindowSize(WINDOW));

http.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  stats.startedMs = epochMs();
  process.stdout.write(`listening ${http.address().port} grpc ${grpcPort}\n`);
});
