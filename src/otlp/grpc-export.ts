// The Export method of OTLP/gRPC's three services, as grpc-js describes a method: its path, and
// messages taken and given as bytes, since otelgate reads and writes the protobuf itself. The
// otlp receiver serves it and the otlp exporter calls it.
import type { MethodDefinition } from '@grpc/grpc-js';
import type { Signal } from '../model/signal.js';

const SERVICES: Record<Signal, string> = {
  logs: 'opentelemetry.proto.collector.logs.v1.LogsService',
  traces: 'opentelemetry.proto.collector.trace.v1.TraceService',
  metrics: 'opentelemetry.proto.collector.metrics.v1.MetricsService',
};

const same = (bytes: Buffer): Buffer => bytes;

export function exportMethod(signal: Signal): MethodDefinition<Buffer, Buffer> {
  return { path: `/${SERVICES[signal]}/Export`, requestStream: false, responseStream: false, requestSerialize: same, requestDeserialize: same, responseSerialize: same, responseDeserialize: same };
}
