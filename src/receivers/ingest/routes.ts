// The protocols of the ingest interface, in the order its paths are listed.
import { SIGNALS } from '../../model/signal.js';
import { otlpProtocol } from '../helper/otlp-protocol.js';
import type { Protocol } from '../helper/protocol.js';
import { sentryProtocol } from './sentry-protocol.js';
import { simpleProtocol } from './simple-protocol.js';

export function ingestProtocols(standardPaths: boolean, protobufEnabled: boolean): Protocol[] {
  const protocols = [otlpProtocol(SIGNALS.map((signal) => [`/api/v1/${signal}`, signal]), protobufEnabled), simpleProtocol('/api/v1/ingest')];
  if (standardPaths) protocols.push(otlpProtocol(SIGNALS.map((signal) => [`/v1/${signal}`, signal]), protobufEnabled));
  protocols.push(sentryProtocol);
  return protocols;
}
