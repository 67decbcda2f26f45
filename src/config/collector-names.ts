// Components of the OpenTelemetry Collector (core and contrib) that otelgate does not have, with
// what to use instead: a Collector config moved over names them, and "unknown type" alone would
// not tell its author whether it is a typo or a gap, nor what to write.
import type { Kind } from '../runtime/component.js';

const NOT_YET = 'not in otelgate yet';

const COLLECTOR_ONLY: Record<Kind, Readonly<Record<string, string>>> = {
  receiver: {
    prometheus: 'otelgate does not scrape; have Prometheus remote-write elsewhere, or send OTLP metrics to the otlp receiver',
    filelog: 'otelgate does not tail files; have an agent (the Collector, Fluent Bit, Vector) send OTLP to the otlp receiver',
    hostmetrics: 'otelgate does not collect host metrics; have an agent send them as OTLP to the otlp receiver',
    jaeger: 'send OTLP instead (Jaeger clients and agents can): use the otlp receiver',
    zipkin: 'send OTLP instead: use the otlp receiver',
    kafka: 'otelgate reads no Kafka; use the otlp receiver (gRPC or HTTP)',
    fluentforward: 'send OTLP instead (Fluent Bit has an opentelemetry output): use the otlp receiver',
  },
  processor: {
    tail_sampling: `${NOT_YET}; remove it to run the rest of the pipeline`,
    k8sattributes: 'otelgate does not ask Kubernetes; run it in a Collector agent in front of otelgate',
    resourcedetection: 'otelgate does not detect resources; run it in a Collector agent in front of otelgate',
  },
  exporter: {
    logging: 'the Collector renamed it debug, which otelgate has',
    prometheus: 'otelgate serves no scrape endpoint for the data it receives; use prometheusremotewrite to push to Prometheus or Mimir',
    file: `${NOT_YET}; use the store exporter to keep data locally, or debug to print it`,
    kafka: 'otelgate writes no Kafka; use otlp_http to another Collector that does',
    elasticsearch: 'use otlp_http to an OTLP endpoint of the backend, or to a Collector that has this exporter',
    clickhouse: 'use otlp_http to a Collector that has this exporter, or the store exporter',
  },
  extension: {
    basicauth: 'otelgate authenticates requests by API key: use apikeyauth',
    bearertokenauth: 'otelgate authenticates requests by API key (sent as a bearer token): use apikeyauth',
    oidc: 'otelgate authenticates requests by API key: use apikeyauth',
    pprof: 'otelgate has no pprof endpoint; profile with node --cpu-prof',
    zpages: 'otelgate has no zpages; its own metrics are under service.telemetry.metrics',
  },
};

/** Why a type the Collector has is not one of otelgate's, and what to use instead; undefined for a type the Collector does not have either. */
export function collectorOnly(kind: Kind, type: string): string | undefined {
  const known = COLLECTOR_ONLY[kind];
  return Object.hasOwn(known, type) ? `the Collector's ${kind} "${type}" is not an otelgate component: ${known[type] as string}` : undefined;
}
