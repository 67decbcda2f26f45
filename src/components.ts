// Every component type otelgate ships, in one registry.
import { debugExporterFactory } from './exporters/debug/factory.js';
import { lokiExporterFactory } from './exporters/loki/factory.js';
import { nopExporterFactory } from './exporters/nop/factory.js';
import { otlpExporterFactory } from './exporters/otlp/factory.js';
import { otlpHttpExporterFactory, otlphttpExporterFactory } from './exporters/otlp_http/factory.js';
import { prometheusRemoteWriteExporterFactory } from './exporters/prometheusremotewrite/factory.js';
import { storeExporterFactory } from './exporters/store/factory.js';
import { attributesProcessorFactory } from './processors/attributes/factory.js';
import { batchProcessorFactory } from './processors/batch/factory.js';
import { filterProcessorFactory } from './processors/filter/factory.js';
import { memoryLimiterProcessorFactory } from './processors/memory_limiter/factory.js';
import { probabilisticSamplerProcessorFactory } from './processors/probabilistic_sampler/factory.js';
import { redactionProcessorFactory } from './processors/redaction/factory.js';
import { resourceProcessorFactory } from './processors/resource/factory.js';
import { spanProcessorFactory } from './processors/span/factory.js';
import { transformProcessorFactory } from './processors/transform/factory.js';
import { apiKeyAuthExtensionFactory } from './extensions/apikeyauth/factory.js';
import { fileStorageExtensionFactory } from './extensions/file_storage/factory.js';
import { healthCheckExtensionFactory } from './extensions/health_check/factory.js';
import { ingestReceiverFactory } from './receivers/ingest/factory.js';
import { nopReceiverFactory } from './receivers/nop/factory.js';
import { otlpReceiverFactory } from './receivers/otlp/factory.js';
import { Registry } from './runtime/registry.js';

export function builtinRegistry(): Registry {
  return new Registry([
    ingestReceiverFactory,
    nopReceiverFactory,
    otlpReceiverFactory,
    attributesProcessorFactory,
    batchProcessorFactory,
    filterProcessorFactory,
    memoryLimiterProcessorFactory,
    probabilisticSamplerProcessorFactory,
    redactionProcessorFactory,
    resourceProcessorFactory,
    spanProcessorFactory,
    transformProcessorFactory,
    debugExporterFactory,
    lokiExporterFactory,
    nopExporterFactory,
    otlpExporterFactory,
    otlpHttpExporterFactory,
    otlphttpExporterFactory,
    prometheusRemoteWriteExporterFactory,
    storeExporterFactory,
    apiKeyAuthExtensionFactory,
    fileStorageExtensionFactory,
    healthCheckExtensionFactory,
  ]);
}
