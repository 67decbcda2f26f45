// otlp_http passes the exporter contract against a real OTLP/HTTP backend.
import type { LogRow } from '../../../src/model/logs.js';
import { httpBackends, otlpWire } from '../../helpers/backend.js';
import { exporterContract } from '../contract.js';

exporterContract({
  type: 'otlp_http',
  backend: httpBackends(otlpWire),
  settings: (url) => [`endpoint: ${url}`],
  messages: (rows) => rows.map((row) => (row as LogRow).body as string),
});
