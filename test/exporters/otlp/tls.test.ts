// The otlp exporter's tls against a real gRPC server over TLS, with certificates made at test
// time: the same trust as the HTTP exporters (ca_file checked as Go checks it, else Node's and the
// system's CAs), insecure_skip_verify, server_name_override, and a client certificate.
import { readFileSync, writeFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import type { OtlpGrpcConfig } from '../../../src/exporters/otlp/config.js';
import { createGrpcSender, type GrpcSender } from '../../../src/exporters/otlp/grpc-sender.js';
import { makeCertificates, type Certificates } from '../../helpers/certificates.js';
import { exporterSettings } from '../../helpers/config.js';
import { GrpcBackend } from '../../helpers/grpc-backend.js';

let certificates: Certificates;
const file = (name: string): string => certificates.file(name);

beforeAll(() => {
  certificates = makeCertificates();
});

afterAll(() => certificates.remove());

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A gRPC backend serving TLS with server.crt (for 127.0.0.1 and localhost); with `clientCa`, it asks for a client certificate. */
async function tlsBackend(clientCa?: string): Promise<GrpcBackend> {
  const pair = { cert_chain: readFileSync(file('server.crt')), private_key: readFileSync(file('server.key')) };
  const backend = new GrpcBackend(() => grpc.ServerCredentials.createSsl(clientCa === undefined ? null : readFileSync(file(clientCa)), [pair], clientCa !== undefined));
  await backend.start();
  cleanup.push(() => backend.stop());
  return backend;
}

async function sender(endpoint: string, tls: string): Promise<GrpcSender> {
  const made = await createGrpcSender(exporterSettings<OtlpGrpcConfig>('otlp', `endpoint: ${endpoint}\ntls: ${tls}\ntimeout: 10s`));
  cleanup.push(() => made.close());
  return made;
}

/** An empty ExportLogsServiceRequest: what the server answers is what counts. */
const send = (to: GrpcSender) => to.send('logs', new Uint8Array(0), {});

describe('the otlp exporter over TLS', () => {
  it('trusts a server whose certificate ca_file signed', async () => {
    const backend = await tlsBackend();
    expect(await send(await sender(backend.url, `{ca_file: ${file('ca.crt')}}`))).toEqual({ kind: 'success', status: 200 });
    expect(backend.received).toHaveLength(1);
  });

  it('refuses it without ca_file (Node\'s and the system\'s CAs) and with another CA, retryably, sending nothing', async () => {
    const backend = await tlsBackend();
    expect(await send(await sender(backend.url, '{}'))).toMatchObject({ kind: 'retryable', grpcStatus: 'UNAVAILABLE' });
    expect(await send(await sender(backend.url, `{ca_file: ${file('other-ca.crt')}}`))).toMatchObject({ kind: 'retryable', grpcStatus: 'UNAVAILABLE' });
    expect(backend.received).toHaveLength(0);
  });

  it('skips verification with insecure_skip_verify', async () => {
    const backend = await tlsBackend();
    expect(await send(await sender(backend.url, '{insecure_skip_verify: true}'))).toEqual({ kind: 'success', status: 200 });
  });

  it('checks the certificate against server_name_override instead of the endpoint\'s host', async () => {
    const backend = await tlsBackend();
    expect(await send(await sender(backend.url, `{ca_file: ${file('ca.crt')}, server_name_override: localhost}`))).toEqual({ kind: 'success', status: 200 });
    expect(await send(await sender(backend.url, `{ca_file: ${file('ca.crt')}, server_name_override: backend.example}`))).toMatchObject({ kind: 'retryable', grpcStatus: 'UNAVAILABLE' });
    expect(backend.received).toHaveLength(1);
  });

  it('presents cert_file and key_file to a server that asks for a client certificate, and is refused without one', async () => {
    const backend = await tlsBackend('ca.crt');
    expect(await send(await sender(backend.url, `{ca_file: ${file('ca.crt')}, cert_file: ${file('client.crt')}, key_file: ${file('client.key')}}`))).toEqual({ kind: 'success', status: 200 });
    expect(await send(await sender(backend.url, `{ca_file: ${file('ca.crt')}}`))).toMatchObject({ kind: 'retryable', grpcStatus: 'UNAVAILABLE' });
    expect(backend.received).toHaveLength(1);
  });
});

describe('the otlp exporter\'s tls files that cannot be used', () => {
  const create = (tls: string) => sender('127.0.0.1:1', tls);

  it('a ca_file without a certificate in it, or with a broken one, stops it at creation naming the setting', async () => {
    writeFileSync(file('not-a-ca.pem'), 'this is not a certificate\n');
    await expect(create(`{ca_file: ${file('not-a-ca.pem')}}`)).rejects.toThrow(ConfigError);
    await expect(create(`{ca_file: ${file('not-a-ca.pem')}}`)).rejects.toThrow(`tls.ca_file: ${file('not-a-ca.pem')} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
    writeFileSync(file('broken-ca.pem'), `${readFileSync(file('ca.crt'), 'latin1')}-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n`);
    await expect(create(`{ca_file: ${file('broken-ca.pem')}}`)).rejects.toThrow(new RegExp(`^tls\\.ca_file: certificate 2 of ${file('broken-ca.pem')} is not valid: `));
  });

  it('a key that does not belong to its certificate', async () => {
    await expect(create(`{cert_file: ${file('client.crt')}, key_file: ${file('server.key')}}`)).rejects.toThrow(/^tls: cert_file, key_file not usable: .*key values mismatch/);
  });
});
