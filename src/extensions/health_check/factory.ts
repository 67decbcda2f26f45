// The health_check extension: an HTTP endpoint for liveness and readiness probes that answers 200
// once every component has started and 503 before that and from the moment shutdown begins, with
// the bodies of the Collector's healthcheckextension (its v1 behaviour, without check_collector_pipeline).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { ExtensionFactory, SettingsProblem } from '../../runtime/component.js';
import { createServer } from '../../runtime/http.js';
import { listen, parseEndpoint } from '../../runtime/listen.js';
import { healthCheckSchema } from './config.js';

const SECOND = 1_000_000_000n;

function fraction(value: bigint, digits: number): { whole: bigint; text: string } {
  const scale = 10n ** BigInt(digits);
  const text = (value % scale).toString().padStart(digits, '0').replace(/0+$/, '');
  return { whole: value / scale, text: text === '' ? '' : `.${text}` };
}

/** A duration in nanoseconds as Go's time.Duration.String() writes it: "0s", "750µs", "1.5s", "1h0m2s". */
export function goDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  if (ns < SECOND) {
    const [digits, unit] = ns < 1_000n ? [0, 'ns'] : ns < 1_000_000n ? [3, 'µs'] : [6, 'ms'];
    const { whole, text } = fraction(ns, digits);
    return `${whole}${text}${unit}`;
  }
  const { whole: seconds, text } = fraction(ns, 9);
  const s = `${seconds % 60n}${text}s`;
  const minutes = seconds / 60n;
  if (minutes === 0n) return s;
  const hours = minutes / 60n;
  return hours === 0n ? `${minutes}m${s}` : `${hours}h${minutes % 60n}m${s}`;
}

// Go marshals the zero time.Time this way, and the Collector sends it (with an empty uptime) whenever it is not ready.
const NOT_AVAILABLE = JSON.stringify({ status: 'Server not available', upSince: '0001-01-01T00:00:00Z', uptime: '' });

export const healthCheckExtensionFactory: ExtensionFactory<typeof healthCheckSchema> = {
  kind: 'extension',
  type: 'health_check',
  description: 'An HTTP endpoint for liveness and readiness probes: 200 once otelgate has started, 503 before that and once it shuts down.',
  stability: 'alpha',
  schema: healthCheckSchema,
  validate(config) {
    const problems: SettingsProblem[] = [];
    if (parseEndpoint(config.endpoint) === undefined) problems.push({ path: ['endpoint'], message: `"${config.endpoint}" is not host:port, e.g. localhost:13133 or :13133` });
    if (!config.path.startsWith('/')) problems.push({ path: ['path'], message: `"${config.path}" must start with "/"` });
    return problems;
  },
  create(config, ctx) {
    const { host, port } = parseEndpoint(config.endpoint) as { host: string | undefined; port: number };
    // Set by ready(), cleared by notReady(): when the service became ready, by the wall clock and the monotonic one.
    let up: { since: string; at: bigint } | undefined;
    let server: Server | undefined;

    const answer = (res: ServerResponse): void => {
      if (config.response_body !== undefined) {
        res.writeHead(up === undefined ? 503 : 200, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(up === undefined ? config.response_body.unhealthy : config.response_body.healthy);
        return;
      }
      res.writeHead(up === undefined ? 503 : 200, { 'Content-Type': 'application/json' });
      res.end(up === undefined ? NOT_AVAILABLE : JSON.stringify({ status: 'Server available', upSince: up.since, uptime: goDuration(process.hrtime.bigint() - up.at) }));
    };
    // As the Collector's (Go's ServeMux): a path ending in "/" answers everything below it, so the
    // default "/" answers every URL; any other path answers only itself. Any method; the query
    // string is not part of the path.
    const subtree = config.path.endsWith('/');
    const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
      const url = req.url ?? '/';
      const query = url.indexOf('?');
      const path = query === -1 ? url : url.slice(0, query);
      if (subtree ? path.startsWith(config.path) : path === config.path) {
        answer(res);
        return;
      }
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
      res.end('404 page not found\n');
    };
    const setState = (ready: boolean): void => {
      up = ready ? (up ?? { since: new Date().toISOString(), at: process.hrtime.bigint() }) : undefined;
      // Debug, not info as in the Collector: the service logs both moments at info already.
      ctx.logger.debug({ status: ready ? 'ready' : 'unavailable' }, 'Health Check state change');
    };

    return {
      async start() {
        const listening = createServer(onRequest);
        const shown = await listen(listening, port, host);
        server = listening;
        ctx.logger.info({ endpoint: shown, path: config.path }, 'Starting health_check extension');
      },
      async shutdown() {
        const listening = server;
        if (listening === undefined) return;
        server = undefined;
        // Probes hold nothing worth waiting for: close every connection, idle or not, at once.
        const closed = new Promise<void>((resolve) => listening.close(() => resolve()));
        listening.closeAllConnections();
        await closed;
      },
      ready: () => setState(true),
      notReady: () => setState(false),
    };
  },
};
