// Settings of the health_check extension, named as the Collector's healthcheckextension names them.
import Type, { type Static } from 'typebox';

export const healthCheckSchema = Type.Object(
  {
    endpoint: Type.String({
      default: 'localhost:13133',
      description: 'host:port to listen on; localhost by default, as the Collector. ":13133" or "0.0.0.0:13133" listens on every interface.',
    }),
    path: Type.String({ default: '/', description: 'The path the health check answers on; it must start with "/". Any other path is answered 404.' }),
    response_body: Type.Optional(
      Type.Object(
        {
          healthy: Type.String({ default: '', description: 'Body answered with 200 while otelgate is ready.' }),
          unhealthy: Type.String({ default: '', description: 'Body answered with 503 before otelgate is ready and once it shuts down.' }),
        },
        { additionalProperties: false, description: 'Static bodies that replace the JSON status answer.' },
      ),
    ),
    check_collector_pipeline: Type.Optional(
      Type.Object(
        {
          enabled: Type.Boolean({ default: false }),
          interval: Type.String({ format: 'duration', default: '5m' }),
          exporter_failure_threshold: Type.Integer({ minimum: 0, default: 5 }),
        },
        {
          additionalProperties: false,
          description: 'Accepted for the Collector\'s configs, where it is deprecated and does nothing either; readiness here already waits for every pipeline to start.',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export type HealthCheckConfig = Static<typeof healthCheckSchema>;
