// loki passes the exporter contract against the stand-in Loki, which reads pushes as Loki does.
import { httpBackends } from '../../helpers/backend.js';
import { lokiWire } from '../../helpers/loki.js';
import { exporterContract } from '../contract.js';

exporterContract({
  type: 'loki',
  backend: httpBackends(lokiWire),
  settings: (url) => [`endpoint: ${url}`],
  messages: (rows) => rows.map((row) => row.line),
});
