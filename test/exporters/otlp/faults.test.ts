// The otlp exporter (OTLP/gRPC) passes the exporter contract against a real gRPC backend: its
// "retry after" is a RESOURCE_EXHAUSTED with a RetryInfo, its permanent refusal an INVALID_ARGUMENT.
import type { LogRow } from '../../../src/model/logs.js';
import { grpcBackends } from '../../helpers/grpc-backend.js';
import { exporterContract } from '../contract.js';

exporterContract({
  type: 'otlp',
  backend: grpcBackends,
  settings: (url) => [`endpoint: ${url}`, 'tls: {insecure: true}'],
  messages: (rows) => rows.map((row) => (row as LogRow).body as string),
});
