// The load generator for OTLP/gRPC: grpc-js (the client the OTel JS SDK's gRPC exporters use),
// `connections` channels of one connection each (as loadgen.mjs has as many HTTP connections),
// each with one call in flight at a time, sending the prepared message as it is.
// Takes the options of loadgen.mjs (host, port, signal in `path`, headers' Authorization, bodyFile,
// connections, warmupMs, durationMs) and prints the same JSON line, a call answered OK counted as 200.
import { readFileSync } from 'node:fs';
import { credentials, makeGenericClientConstructor, Metadata } from '@grpc/grpc-js';
import { Tally } from './tally.mjs';

const options = JSON.parse(process.argv[2]);
const { host, port, path, headers, bodyFile, connections, warmupMs, durationMs } = options;
const body = readFileSync(bodyFile);
const SERVICES = { '/v1/logs': 'logs.v1.LogsService', '/v1/traces': 'trace.v1.TraceService', '/v1/metrics': 'metrics.v1.MetricsService' };
const same = (bytes) => bytes;
const Client = makeGenericClientConstructor(
  { Export: { path: `/opentelemetry.proto.collector.${SERVICES[path]}/Export`, requestStream: false, responseStream: false, requestSerialize: same, requestDeserialize: same, responseSerialize: same, responseDeserialize: same } },
  'Export',
);
// A local subchannel pool each: channels to one address would otherwise share one connection.
const clients = Array.from({ length: connections }, () => new Client(`${host}:${port}`, credentials.createInsecure(), { 'grpc.max_send_message_length': -1, 'grpc.use_local_subchannel_pool': 1 }));
const metadata = new Metadata();
if (headers.Authorization !== undefined) metadata.set('authorization', headers.Authorization);

const tally = new Tally(warmupMs, durationMs);

function run(client) {
  return new Promise((resolve) => {
    const send = () => {
      if (tally.over) {
        resolve();
        return;
      }
      const sentAt = performance.now();
      client.Export(body, metadata, (error) => {
        if (error !== null && error.code === 14 && error.details?.includes('connect')) tally.errors++;
        tally.record(performance.now() - sentAt, error === null ? '200' : `grpc ${error.code}`);
        send();
      });
    };
    send();
  });
}

await Promise.all(clients.map(run));
for (const client of clients) client.close();
tally.print({ times: 0 });
