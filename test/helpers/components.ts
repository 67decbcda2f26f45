// Test-only components for driving the runtime: they record what happens to them, in order.
import Type from 'typebox';
import type { Batch } from '../../src/model/batch.js';
import { withAttributes } from '../../src/model/anyvalue.js';
import { SIGNALS, type Signal } from '../../src/model/signal.js';
import type { Component, ComponentContext, ConsumeContext, Consumer, ExporterFactory, ExtensionFactory, Kind, ProcessorFactory, ReceiverFactory } from '../../src/runtime/component.js';
import { SelfMetrics } from '../../src/telemetry/metrics.js';
import { builtinRegistry } from '../../src/components.js';
import { Service } from '../../src/runtime/service.js';
import { configFrom } from './config.js';
import { memoryLogger } from './logger.js';

export interface Recorder {
  events: string[];
  batches: Map<string, Batch[]>;
}

export function recorder(): Recorder {
  return { events: [], batches: new Map() };
}

const empty = Type.Object({}, { additionalProperties: false });

/** Records every batch per exporter id; `gate` (if set) holds consume() until it resolves. */
export function captureExporter(rec: Recorder, options: { gate?: Promise<void>; fail?: Error; sendsProtobuf?: boolean } = {}): ExporterFactory<typeof empty> {
  return {
    kind: 'exporter',
    type: 'capture',
    description: 'test',
    stability: { logs: 'development', traces: 'development', metrics: 'development' },
    schema: empty,
    create: (_config, ctx) => ({
      ...(options.sendsProtobuf === undefined ? {} : { sendsProtobuf: options.sendsProtobuf }),
      start: async () => void rec.events.push(`start ${ctx.id}`),
      shutdown: async () => void rec.events.push(`shutdown ${ctx.id}`),
      consume: async (batch) => {
        rec.events.push(`consume ${ctx.id}`);
        if (options.gate !== undefined) await options.gate;
        if (options.fail !== undefined) throw options.fail;
        const list = rec.batches.get(ctx.id) ?? [];
        list.push(batch);
        rec.batches.set(ctx.id, list);
        rec.events.push(`consumed ${ctx.id}`);
      },
    }),
  };
}

/** An exporter a test switches: it takes each batch (into `taken`, its context into `contexts`), or refuses it with `refusal` while that is set. */
export interface Switchable {
  factory: ExporterFactory<typeof empty>;
  taken: Batch[];
  contexts: ConsumeContext[];
  refusal: Error | undefined;
}

export function switchableExporter(): Switchable {
  const state: Switchable = {
    taken: [],
    contexts: [],
    refusal: undefined,
    factory: {
      kind: 'exporter',
      type: 'switchable',
      description: 'test',
      stability: { logs: 'development', traces: 'development', metrics: 'development' },
      schema: empty,
      create: () => ({
        start: async () => {},
        shutdown: async () => {},
        consume: async (batch, ctx) => {
          if (state.refusal !== undefined) throw state.refusal;
          state.taken.push(batch);
          state.contexts.push(ctx);
        },
      }),
    },
  };
  return state;
}

/** An exporter that only serves logs, as a Loki exporter does. */
export const logsOnlyExporter: ExporterFactory<typeof empty> = {
  kind: 'exporter',
  type: 'logsonly',
  description: 'test',
  stability: { logs: 'alpha' },
  schema: empty,
  create: () => ({ start: async () => {}, shutdown: async () => {}, consume: async () => {} }),
};

const tagSchema = Type.Object({ tag: Type.String() }, { additionalProperties: false });

/** Builds new rows carrying its tag in attribute "tags", never changing the batch it was given. */
export function tagProcessor(rec: Recorder): ProcessorFactory<typeof tagSchema> {
  return {
    kind: 'processor',
    type: 'tag',
    description: 'test',
    stability: { logs: 'development', traces: 'development', metrics: 'development' },
    schema: tagSchema,
    create: (config, ctx, next: Consumer) => ({
      start: async () => void rec.events.push(`start ${ctx.id}`),
      shutdown: async () => void rec.events.push(`shutdown ${ctx.id}`),
      consume: (batch, ctx) => {
        if (batch.signal !== 'logs') return next.consume(batch, ctx);
        const rows = batch.rows.map((row) => {
          const tags = row.attributes['tags'];
          return { ...row, attributes: withAttributes(row.attributes, { tags: `${typeof tags === 'string' ? `${tags},` : ''}${config.tag}` }) };
        });
        return next.consume({ ...batch, rows }, ctx);
      },
    }),
  };
}

export function testReceiver(rec: Recorder): ReceiverFactory<typeof empty> {
  return {
    kind: 'receiver',
    type: 'testin',
    description: 'test',
    stability: { logs: 'development', traces: 'development', metrics: 'development' },
    schema: empty,
    create: (_config, ctx) => ({
      start: async () => void rec.events.push(`start ${ctx.id}`),
      shutdown: async () => void rec.events.push(`shutdown ${ctx.id}`),
    }),
  };
}

export function testExtension(rec: Recorder, failStart = false): ExtensionFactory<typeof empty> {
  return {
    kind: 'extension',
    type: 'testext',
    description: 'test',
    stability: 'development',
    schema: empty,
    create: (_config, ctx) => ({
      start: async () => {
        if (failStart) throw new Error('port in use');
        rec.events.push(`start ${ctx.id}`);
      },
      shutdown: async () => void rec.events.push(`shutdown ${ctx.id}`),
    }),
  };
}

/** A ComponentContext as the Service gives one, with a logger that keeps its lines, no extensions or exporters, and metrics off. */
export function testContext(id: string, kind: Kind, signals: readonly Signal[] = kind === 'extension' ? [] : SIGNALS): { ctx: ComponentContext; lines: Record<string, unknown>[] } {
  const { logger, lines } = memoryLogger();
  const host = { extension: () => undefined, exporters: () => new Map<string, Component>() };
  return { ctx: { id, kind, logger, host, telemetry: new SelfMetrics({ level: 'none', readers: [] }, logger), signals, worker: undefined, stopping: new AbortController().signal }, lines };
}

/**
 * The otlp receiver serving gRPC with `grpc` (its settings, as YAML after `grpc:`) into `exporter`
 * in a logs pipeline, started in this process; `address` is where it listens.
 */
export async function startGrpcReceiver(grpc: string, exporter: Switchable): Promise<{ service: Service; address: string; lines: Record<string, unknown>[] }> {
  const { logger, lines } = memoryLogger();
  const service = new Service(
    configFrom(
      `
receivers:
  otlp:
    protocols:
      grpc: ${grpc}
exporters: {switchable: }
service:
  pipelines:
    logs: {receivers: [otlp], exporters: [switchable]}
`,
      builtinRegistry().register(exporter.factory),
    ),
    logger,
  );
  await service.start();
  return { service, lines, address: String(lines.find((l) => l['msg'] === 'Starting GRPC server')?.['endpoint']) };
}
