// prometheusremotewrite passes the exporter contract against a stand-in remote-write receiver,
// which reads requests as Prometheus does (a real Prometheus can't be stopped and told what to
// answer mid-test; test/exporters/prometheusremotewrite/prometheus.test.ts runs against one).
import { httpBackends } from '../../helpers/backend.js';
import { sendMetrics } from '../../helpers/forwarder.js';
import { REMOTE_WRITE_PATH, remoteWriteWire } from '../../helpers/remote-write.js';
import { exporterContract } from '../contract.js';

exporterContract({
  type: 'prometheusremotewrite',
  backend: httpBackends(remoteWriteWire),
  signal: 'metrics',
  settings: (url) => [`endpoint: ${url}${REMOTE_WRITE_PATH}`],
  messages: (rows) => rows.flatMap((series) => (series.labels['m'] === undefined ? [] : [series.labels['m']])),
  send: sendMetrics,
  accepted: 200,
});
