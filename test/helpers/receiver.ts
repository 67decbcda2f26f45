// The ingest receiver in this process, from its factory, with settings validated as `otelgate run`
// validates them: for tests that look inside it while it serves real sockets (its HTTP server, its
// in-flight budget), which the built CLI in a child process cannot show.
import type { IncomingHttpHeaders } from 'node:http';
import { presentedKey, type Authenticator } from '../../src/auth/authenticator.js';
import { builtinRegistry } from '../../src/components.js';
import type { Batch } from '../../src/model/batch.js';
import type { IngestConfig } from '../../src/receivers/ingest/config.js';
import { ingestReceiverFactory } from '../../src/receivers/ingest/factory.js';
import type { Component, ConsumeContext, Consumer } from '../../src/runtime/component.js';
import { testContext } from './components.js';
import { configFrom } from './config.js';

/** The one key the receiver's authenticator knows, for project "default". */
export const RECEIVER_KEY = 'otg_inprocess_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export interface InProcessReceiver {
  port: number;
  /** Every batch the receiver handed to its pipelines, and the context it came with. */
  batches: Batch[];
  contexts: ConsumeContext[];
  /** The receiver's log lines. */
  lines: Record<string, unknown>[];
  stop(): Promise<void>;
}

/** The receiver's settings with every default filled in; `settings` are lines under receivers.ingest. */
function ingestConfig(settings: string[] = []): IngestConfig {
  const resolved = configFrom(
    `
extensions:
  apikeyauth:
receivers:
  ingest:
    endpoint: 127.0.0.1:0
    auth: {authenticator: apikeyauth}
${settings.map((line) => `    ${line}`).join('\n')}
exporters:
  nop:
service:
  extensions: [apikeyauth]
  pipelines:
    logs: {receivers: [ingest], exporters: [nop]}
    traces: {receivers: [ingest], exporters: [nop]}
    metrics: {receivers: [ingest], exporters: [nop]}
`,
    builtinRegistry(),
  );
  return resolved.components.receiver.get('ingest')?.config as IngestConfig;
}

/** `wait`, when given, is what the pipeline waits for after it has taken a batch down. */
export async function startReceiver(settings: string[] = [], wait?: (ctx: ConsumeContext) => Promise<void>): Promise<InProcessReceiver> {
  const { ctx, lines } = testContext('ingest', 'receiver');
  const authenticator: Authenticator = {
    start: async () => {},
    shutdown: async () => {},
    authenticate: (headers: IncomingHttpHeaders) => (presentedKey(headers) === RECEIVER_KEY ? { project: 'default', keyId: 'inprocess' } : undefined),
    authenticateKey: (key: string) => (key === RECEIVER_KEY ? { project: 'default', keyId: 'inprocess' } : undefined),
  };
  const host = { extension: (id: string) => (id === 'apikeyauth' ? authenticator : undefined), exporters: () => new Map<string, Component>() };
  const batches: Batch[] = [];
  const contexts: ConsumeContext[] = [];
  const pipeline: Consumer = {
    consume: async (batch, ctx) => {
      batches.push(batch);
      contexts.push(ctx);
      await wait?.(ctx);
    },
  };
  const receiver = ingestReceiverFactory.create(ingestConfig(settings), { ...ctx, host }, { logs: pipeline, traces: pipeline, metrics: pipeline });
  await receiver.start();
  const endpoint = String(lines.find((l) => l['msg'] === 'Starting HTTP server')?.['endpoint']);
  return { port: Number(endpoint.split(':').at(-1)), batches, contexts, lines, stop: () => receiver.shutdown() };
}
