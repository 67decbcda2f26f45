// tls against a real https server, with certificates made at test time (test/helpers/certificates.ts):
// trust by ca_file, insecure_skip_verify, mTLS, server_name_override, min_version, and a clear
// error for a file that cannot be used.
import { readFileSync, writeFileSync } from 'node:fs';
import type { TLSSocket } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { createHttpSender, type HttpSender } from '../../../src/exporters/helper/http-sender.js';
import { startBackend, type Backend } from '../../helpers/http-backend.js';
import { makeCertificates, type Certificates } from '../../helpers/certificates.js';
import { clientSettings } from './settings-helper.js';

let certificates: Certificates;
const file = (name: string): string => certificates.file(name);

beforeAll(() => {
  certificates = makeCertificates();
});

afterAll(() => certificates.remove());

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function httpsBackend(options: { clientCa?: string; maxVersion?: 'TLSv1.2' } = {}): Promise<Backend> {
  const tls = {
    cert: readFileSync(file('server.crt')),
    key: readFileSync(file('server.key')),
    ...(options.clientCa === undefined ? {} : { ca: readFileSync(file(options.clientCa)), requestCert: true, rejectUnauthorized: true }),
    ...(options.maxVersion === undefined ? {} : { maxVersion: options.maxVersion }),
  };
  const server = await startBackend((request, res, req) => {
    // Kept with the request, for the mTLS test: the client certificate's name as the server saw it.
    request.headers['x-seen-client'] = String((req.socket as TLSSocket).getPeerCertificate().subject?.CN ?? '');
    res.writeHead(200, { 'content-length': '0' }).end();
  }, tls);
  cleanup.push(() => server.close());
  return server;
}

function sender(endpoint: string, tls: Record<string, unknown>): HttpSender {
  const made = createHttpSender(clientSettings({ endpoint, tls }));
  cleanup.push(() => made.close());
  return made;
}

async function send(to: HttpSender) {
  return to.send(await to.prepare({ path: '/v1/logs', body: Buffer.from('x'), contentType: 'application/x-protobuf' }));
}

describe('server verification', () => {
  it('trusts a server whose certificate ca_file signed', async () => {
    const server = await httpsBackend();
    expect(await send(sender(server.url, { ca_file: file('ca.crt') }))).toEqual({ kind: 'success', status: 200 });
    expect(server.requests).toHaveLength(1);
  });

  it('refuses it without ca_file (the system CAs) and with another CA, as a retryable TLS failure', async () => {
    const server = await httpsBackend();
    expect(await send(sender(server.url, {}))).toMatchObject({ kind: 'retryable', failure: 'tls', message: expect.stringMatching(/^TLS failed: unable to verify the first certificate/) });
    expect(await send(sender(server.url, { ca_file: file('other-ca.crt') }))).toMatchObject({ kind: 'retryable', failure: 'tls' });
    expect(server.requests).toHaveLength(0);
  });

  it('skips verification with insecure_skip_verify', async () => {
    const server = await httpsBackend();
    expect(await send(sender(server.url, { insecure_skip_verify: true }))).toEqual({ kind: 'success', status: 200 });
  });

  it('ignores the other settings with insecure and no ca_file, as the Collector\'s HTTP exporters do', async () => {
    const server = await httpsBackend();
    expect(await send(sender(server.url, { insecure: true, insecure_skip_verify: true }))).toMatchObject({ kind: 'retryable', failure: 'tls' });
    expect(await send(sender(server.url, { insecure: true, ca_file: file('ca.crt') }))).toEqual({ kind: 'success', status: 200 });
  });

  it('checks the certificate against server_name_override instead of the endpoint\'s host', async () => {
    const server = await httpsBackend();
    expect(await send(sender(server.url, { ca_file: file('ca.crt'), server_name_override: 'localhost' }))).toEqual({ kind: 'success', status: 200 });
    expect(await send(sender(server.url, { ca_file: file('ca.crt'), server_name_override: 'backend.example' }))).toMatchObject({ kind: 'retryable', failure: 'tls' });
  });

  it('refuses a server below min_version', async () => {
    const server = await httpsBackend({ maxVersion: 'TLSv1.2' });
    expect(await send(sender(server.url, { ca_file: file('ca.crt') }))).toMatchObject({ kind: 'success' });
    expect(await send(sender(server.url, { ca_file: file('ca.crt'), min_version: '1.3' }))).toMatchObject({ kind: 'retryable', failure: 'tls' });
  });
});

describe('mTLS', () => {
  it('presents cert_file and key_file to a server that asks for a client certificate', async () => {
    const server = await httpsBackend({ clientCa: 'ca.crt' });
    expect(await send(sender(server.url, { ca_file: file('ca.crt'), cert_file: file('client.crt'), key_file: file('client.key') }))).toEqual({ kind: 'success', status: 200 });
    expect(server.requests[0]?.headers['x-seen-client']).toBe('otelgate client');
  });

  it('is refused without a client certificate, retryably', async () => {
    const server = await httpsBackend({ clientCa: 'ca.crt' });
    const outcome = await send(sender(server.url, { ca_file: file('ca.crt') }));
    expect(outcome.kind).toBe('retryable');
    // TLS 1.3 sends the refusal after the handshake: it arrives as an alert or as the connection closing.
    expect(['tls', 'connection_reset']).toContain(outcome.kind === 'success' ? '' : outcome.failure);
    expect(server.requests).toHaveLength(0);
  });
});

describe('files that cannot be used', () => {
  const create = (tls: Record<string, unknown>) => () => createHttpSender(clientSettings({ endpoint: 'https://127.0.0.1:1', tls }));

  it('a ca_file that is not there stops the sender at creation, naming the setting and the file', () => {
    const missing = file('no-such-ca.crt');
    expect(create({ ca_file: missing })).toThrow(ConfigError);
    expect(create({ ca_file: missing })).toThrow(`tls.ca_file: cannot read ${missing}: ENOENT: no such file or directory, open '${missing}'`);
    expect(create({ cert_file: file('none.crt'), key_file: file('client.key') })).toThrow(/^tls\.cert_file: cannot read /);
  });

  it('a ca_file without a certificate in it, or with a broken one (which Node alone would ignore)', () => {
    writeFileSync(file('not-a-ca.pem'), 'this is not a certificate\n');
    expect(create({ ca_file: file('not-a-ca.pem') })).toThrow(`tls.ca_file: ${file('not-a-ca.pem')} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
    writeFileSync(file('broken-ca.pem'), `${readFileSync(file('ca.crt'), 'latin1')}-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n`);
    expect(create({ ca_file: file('broken-ca.pem') })).toThrow(new RegExp(`^tls\\.ca_file: certificate 2 of ${file('broken-ca.pem')} is not valid: `));
  });

  it('a key that does not belong to its certificate', () => {
    expect(create({ cert_file: file('client.crt'), key_file: file('server.key') })).toThrow(/^tls: cert_file, key_file not usable: .*key values mismatch/);
  });
});

it('an http:// endpoint sends in clear whatever tls says', async () => {
  const server = await startBackend();
  cleanup.push(() => server.close());
  expect(await send(sender(server.url, { ca_file: file('ca.crt'), cert_file: file('client.crt'), key_file: file('client.key') }))).toEqual({ kind: 'success', status: 200 });
});
