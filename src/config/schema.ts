// The top level of the config file and its `service` section, in the Collector's shape.
import Type, { type Static } from 'typebox';

const ComponentSection = Type.Record(Type.String(), Type.Unknown());

const PipelineSchema = Type.Object(
  {
    receivers: Type.Array(Type.String(), { minItems: 1, description: 'Receivers that feed this pipeline.' }),
    processors: Type.Array(Type.String(), { default: [], description: 'Processors, applied in order.' }),
    exporters: Type.Array(Type.String(), { minItems: 1, description: 'Exporters; each one gets every batch.' }),
  },
  { additionalProperties: false },
);

const PrometheusReaderSchema = Type.Object(
  {
    pull: Type.Object(
      {
        exporter: Type.Object(
          {
            prometheus: Type.Object(
              {
                host: Type.String({ default: 'localhost', description: 'Interface the metrics endpoint listens on.' }),
                port: Type.Integer({ minimum: 0, maximum: 65535, description: 'Port of the metrics endpoint; the Collector uses 8888.' }),
              },
              { additionalProperties: false },
            ),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const TelemetrySchema = Type.Object(
  {
    metrics: Type.Object(
      {
        level: Type.Enum(['none', 'basic', 'normal', 'detailed'], {
          default: 'normal',
          description: "none: no metrics; basic: receiver and exporter counts; normal and detailed: also HTTP request durations.",
        }),
        readers: Type.Array(PrometheusReaderSchema, { default: [], description: "Where otelgate's own metrics are served, in Prometheus format at /metrics." }),
      },
      { additionalProperties: false, default: {} },
    ),
    logs: Type.Object(
      {
        level: Type.Enum(['debug', 'info', 'warn', 'error'], { default: 'info', description: 'Lowest level of otelgate\'s own log lines.' }),
        encoding: Type.Optional(
          Type.Enum(['console', 'json'], { description: 'json, or readable console lines; default: console on a terminal, json otherwise.' }),
        ),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false, default: {} },
);

export const ServiceSchema = Type.Object(
  {
    extensions: Type.Array(Type.String(), { default: [], description: 'Extensions to start, by id.' }),
    pipelines: Type.Record(Type.String(), PipelineSchema, { description: 'logs, traces, metrics, or signal/name.' }),
    telemetry: TelemetrySchema,
    shutdown_timeout: Type.String({
      format: 'duration',
      default: '15s',
      description: 'How long a shutdown may wait for in-flight batches and for components to stop before otelgate exits anyway.',
    }),
    workers: Type.Integer({
      minimum: 1,
      maximum: 64,
      default: 1,
      description:
        "Processes that run the pipelines, sharing the receivers' ports (node:cluster); set it to the cores otelgate may use. Each runs its own copy of every component. Not with a component that must be alone with its files (the store exporter).",
    }),
  },
  { additionalProperties: false },
);

export const ConfigSchema = Type.Object(
  {
    receivers: Type.Optional(ComponentSection),
    processors: Type.Optional(ComponentSection),
    exporters: Type.Optional(ComponentSection),
    extensions: Type.Optional(ComponentSection),
    service: ServiceSchema,
  },
  { additionalProperties: false },
);

export type ServiceSettings = Static<typeof ServiceSchema>;
export type TelemetrySettings = ServiceSettings['telemetry'];
