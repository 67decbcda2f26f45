// The otlp exporter's sending side: one grpc-js channel to the endpoint, the Export call of each
// signal's service taking the queued protobuf bytes as they are, and each call's end classified as
// the Collector's otlp exporter does (its processError): which codes are worth retrying, and for
// how long the backend asked to wait.
import type * as Grpc from '@grpc/grpc-js';
import { durationMs } from '../../config/duration.js';
import type { Signal } from '../../model/signal.js';
import { exportMethod } from '../../otlp/grpc-export.js';
import { GRPC_CODE_NAMES, grpcCode, retryDelayMs } from '../../otlp/status.js';
import { VERSION } from '../../version.js';
import { boundedText } from '../helper/backend-message.js';
import { headerPairs } from '../helper/http-settings.js';
import type { SendFailure, SendOutcome } from '../helper/outcome.js';
import { readPartialSuccess } from '../helper/partial-success.js';
import { readTlsFile, trustedCaPem, unusableTls } from '../helper/tls-settings.js';
import { parseGrpcEndpoint, type OtlpGrpcConfig } from './config.js';

const CANCELLED = grpcCode('CANCELLED');
const DEADLINE_EXCEEDED = grpcCode('DEADLINE_EXCEEDED');
const RESOURCE_EXHAUSTED = grpcCode('RESOURCE_EXHAUSTED');
/** Retried whatever the backend says (the Collector's shouldRetry); RESOURCE_EXHAUSTED only with a RetryInfo. */
const RETRYABLE = new Set((['CANCELLED', 'DEADLINE_EXCEEDED', 'ABORTED', 'OUT_OF_RANGE', 'UNAVAILABLE', 'DATA_LOSS'] as const).map(grpcCode));

export interface GrpcSender {
  /** One attempt, bounded by `timeout`; never rejects. `signal` (shutdown) cancels it, as a retryable `aborted` failure. */
  send(signal: Signal, payload: Uint8Array, headers: Record<string, string>, abort?: AbortSignal): Promise<SendOutcome>;
  close(): void;
}

/** What the end of a call comes to, as the Collector's otlp exporter reads it. */
export function classifyGrpc(code: number, details: string, statusDetails: Buffer | undefined, response: Buffer | undefined): SendOutcome {
  if (code === 0) {
    const reading = readPartialSuccess(response ?? Buffer.alloc(0), 'application/x-protobuf');
    if ('unreadable' in reading) return { kind: 'success', status: 200, unreadableBody: reading.unreadable };
    return reading.partial === undefined ? { kind: 'success', status: 200 } : { kind: 'success', status: 200, partial: reading.partial };
  }
  const retryAfterMs = statusDetails === undefined ? undefined : retryDelayMs(statusDetails);
  const retryable = RETRYABLE.has(code) || (code === RESOURCE_EXHAUSTED && retryAfterMs !== undefined);
  const name = GRPC_CODE_NAMES[code] ?? `code ${code}`;
  const backendMessage = boundedText(details);
  const failure: SendFailure = {
    kind: retryable ? 'retryable' : 'permanent',
    failure: code === DEADLINE_EXCEEDED ? 'timeout' : 'grpc_status',
    grpcStatus: name,
    backendMessage,
    message: `the backend answered ${name}${backendMessage === '' ? '' : `: ${backendMessage}`}`,
  };
  if (retryAfterMs !== undefined && retryAfterMs > 0) failure.retryAfterMs = retryAfterMs;
  return failure;
}

function channelCredentials(grpc: typeof Grpc, config: OtlpGrpcConfig, schemeTls: boolean | undefined): Grpc.ChannelCredentials {
  const tls = config.tls;
  if (!(schemeTls ?? !tls.insecure)) return grpc.credentials.createInsecure();
  const ca = trustedCaPem(tls.ca_file);
  const key = tls.key_file === undefined ? null : readTlsFile('key_file', tls.key_file);
  const cert = tls.cert_file === undefined ? null : readTlsFile('cert_file', tls.cert_file);
  const verify: Grpc.VerifyOptions = tls.insecure_skip_verify ? { rejectUnauthorized: false, checkServerIdentity: () => undefined } : {};
  try {
    return grpc.credentials.createSsl(ca, key, cert, verify);
  } catch (error) {
    throw unusableTls(tls, error);
  }
}

function channelOptions(config: OtlpGrpcConfig): Grpc.ChannelOptions {
  // The channel tries to connect again no later than the exporter retries: with grpc-js's own
  // backoff (up to 120 s) a backend back after an outage went unused for a minute and more, while
  // every retry in between failed at once for want of a connection.
  const reconnectMs = Math.max(1000, durationMs(config.retry_on_failure.max_interval));
  const options: Grpc.ChannelOptions = {
    'grpc.initial_reconnect_backoff_ms': Math.min(1000, durationMs(config.retry_on_failure.initial_interval) || 1000),
    'grpc.max_reconnect_backoff_ms': reconnectMs,
    'grpc.primary_user_agent': `otelgate/${VERSION}`,
    // The queue bounds what it sends; the backend's own limit answers RESOURCE_EXHAUSTED.
    'grpc.max_send_message_length': -1,
    'grpc.default_compression_algorithm': config.compression === 'gzip' ? 2 : 0,
    'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ [config.balancer_name]: {} }] }),
  };
  if (config.authority !== undefined) options['grpc.default_authority'] = config.authority;
  if (config.tls.server_name_override !== undefined) options['grpc.ssl_target_name_override'] = config.tls.server_name_override;
  const keepalive = config.keepalive;
  if (keepalive !== undefined && durationMs(keepalive.time) > 0) {
    options['grpc.keepalive_time_ms'] = durationMs(keepalive.time);
    options['grpc.keepalive_timeout_ms'] = durationMs(keepalive.timeout);
    options['grpc.keepalive_permit_without_calls'] = keepalive.permit_without_stream ? 1 : 0;
  }
  return options;
}

type ExportMethod = (payload: Buffer, metadata: Grpc.Metadata, options: Grpc.CallOptions, done: (error: Grpc.ServiceError | null, response?: Buffer) => void) => Grpc.ClientUnaryCall;

/** Loads grpc-js and opens the channel (lazily: it connects on the first call). Reads the tls files now, throwing a ConfigError naming a bad one. */
export async function createGrpcSender(config: OtlpGrpcConfig): Promise<GrpcSender> {
  const grpc = await import('@grpc/grpc-js');
  const { target, tls } = parseGrpcEndpoint(config.endpoint) as { target: string; tls: boolean | undefined };
  const Client = grpc.makeGenericClientConstructor({ logs: exportMethod('logs'), traces: exportMethod('traces'), metrics: exportMethod('metrics') }, 'OtlpExport');
  const client = new Client(target, channelCredentials(grpc, config, tls), channelOptions(config));
  const exports = client as unknown as Record<Signal, ExportMethod>;
  const configured = headerPairs(config.headers);
  const timeoutMs = durationMs(config.timeout);

  return {
    send(signal, payload, headers, abort) {
      const metadata = new grpc.Metadata();
      for (const [name, value] of configured) metadata.set(name.toLowerCase(), value);
      for (const [name, value] of Object.entries(headers)) metadata.set(name.toLowerCase(), value);
      const options: Grpc.CallOptions = timeoutMs > 0 ? { deadline: Date.now() + timeoutMs } : {};
      return new Promise((resolve) => {
        if (abort?.aborted === true) {
          resolve({ kind: 'retryable', failure: 'aborted', message: 'aborted by shutdown' });
          return;
        }
        const body = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
        const call = exports[signal].call(client, body, metadata, options, (error, response) => {
          abort?.removeEventListener('abort', cancel);
          if (error === null) {
            resolve(classifyGrpc(0, '', undefined, response));
            return;
          }
          if (abort?.aborted === true && error.code === CANCELLED) {
            resolve({ kind: 'retryable', failure: 'aborted', message: 'aborted by shutdown' });
            return;
          }
          const [details] = error.metadata?.get('grpc-status-details-bin') ?? [];
          resolve(classifyGrpc(error.code, error.details, Buffer.isBuffer(details) ? details : undefined, undefined));
        });
        const cancel = (): void => call.cancel();
        abort?.addEventListener('abort', cancel, { once: true });
      });
    },
    close: () => client.close(),
  };
}
