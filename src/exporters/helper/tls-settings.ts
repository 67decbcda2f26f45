// tls of an HTTP client, as the Collector's configtls.ClientConfig: trust (ca_file), client
// certificate (mTLS), verification and protocol versions. Whether TLS is used at all is the
// endpoint's scheme (https://), as in the Collector's HTTP exporters.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import nodeTls, { createSecureContext, type ConnectionOptions, type SecureContext, type SecureContextOptions, type SecureVersion } from 'node:tls';
import Type, { type Static } from 'typebox';
import { ConfigError, errorMessage } from '../../errors.js';
import type { SettingsProblem } from '../../runtime/component.js';

const VERSIONS = ['1.0', '1.1', '1.2', '1.3'] as const;
const SECURE_VERSION: Record<(typeof VERSIONS)[number], SecureVersion> = { '1.0': 'TLSv1', '1.1': 'TLSv1.1', '1.2': 'TLSv1.2', '1.3': 'TLSv1.3' };

const file = (description: string) => Type.Optional(Type.String({ minLength: 1, description }));

export const tlsClientSchema = Type.Object(
  {
    insecure: Type.Boolean({
      default: false,
      description: 'As in the Collector\'s HTTP exporters: true without ca_file ignores the other tls settings (an https:// endpoint is still verified against the default CAs); the endpoint\'s scheme decides whether TLS is used.',
    }),
    insecure_skip_verify: Type.Boolean({ default: false, description: 'Use TLS but do not verify the server\'s certificate (chain and host name). For testing only.' }),
    ca_file: file('PEM file of the CA certificate(s) that verify the server, instead of the default ones: Node\'s own list and the operating system\'s.'),
    cert_file: file('PEM client certificate (chain), for mTLS; with key_file.'),
    key_file: file('PEM private key of cert_file.'),
    min_version: Type.Enum(VERSIONS, { default: '1.2', description: 'Lowest TLS version accepted, quoted: "1.2".' }),
    max_version: Type.Optional(Type.Enum(VERSIONS, { description: 'Highest TLS version offered, quoted: "1.3". Default: the highest Node supports.' })),
    server_name_override: file('Server name sent in TLS SNI and checked against the server certificate, instead of the endpoint\'s host.'),
  },
  { additionalProperties: false, default: {} },
);

export type TlsClientConfig = Static<typeof tlsClientSchema>;

/** Cross-field checks; paths are relative to the exporter's settings. */
export function validateTlsClient(tls: TlsClientConfig): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  if ((tls.cert_file === undefined) !== (tls.key_file === undefined)) {
    const missing = tls.cert_file === undefined ? 'cert_file' : 'key_file';
    problems.push({ path: ['tls', missing], message: 'a client certificate needs both cert_file and key_file, or neither' });
  }
  if (tls.max_version !== undefined && VERSIONS.indexOf(tls.max_version) < VERSIONS.indexOf(tls.min_version)) {
    problems.push({ path: ['tls', 'max_version'], message: `must not be below min_version ("${tls.min_version}")` });
  }
  return problems;
}

/** A tls file, or a ConfigError naming its setting. */
export function readTlsFile(setting: 'ca_file' | 'cert_file' | 'key_file', path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ConfigError([{ severity: 'error', path: `tls.${setting}`, message: `cannot read ${path}: ${errorMessage(error)}` }]);
  }
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

/** Node ignores a CA file without a certificate in it; Go refuses it, and so does otelgate. */
function readCas(path: string): Buffer {
  const pem = readTlsFile('ca_file', path);
  const blocks = pem.toString('latin1').match(PEM_CERTIFICATE) ?? [];
  const refuse = (message: string): never => {
    throw new ConfigError([{ severity: 'error', path: 'tls.ca_file', message }]);
  };
  if (blocks.length === 0) refuse(`${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  blocks.forEach((block, index) => {
    try {
      new X509Certificate(block);
    } catch (error) {
      refuse(`certificate ${index + 1} of ${path} is not valid: ${errorMessage(error)}`);
    }
  });
  return pem;
}

// Read once: reading the system's store takes tens of milliseconds. undefined: Node's defaults.
let cas: string[] | undefined;
let casRead = false;

/**
 * The CAs trusted without ca_file: Node's own list (with NODE_EXTRA_CA_CERTS) and the operating
 * system's store, which is what the Collector (Go) trusts, and where a company's CA is installed.
 */
function defaultCas(): string[] | undefined {
  if (!casRead) {
    // getCACertificates is Node 22.15 and later (hence no named import); an older Node trusts its own list only.
    const { getCACertificates } = nodeTls as Partial<typeof nodeTls>;
    if (getCACertificates !== undefined) cas = [...new Set([...getCACertificates('default'), ...getCACertificates('system')])];
    casRead = true;
  }
  return cas;
}

/** The error for tls files that were read but that TLS cannot use together (a key that does not fit its certificate). */
export function unusableTls(tls: Pick<TlsClientConfig, 'ca_file' | 'cert_file' | 'key_file'>, error: unknown): ConfigError {
  const files = (['ca_file', 'cert_file', 'key_file'] as const).filter((setting) => tls[setting] !== undefined).join(', ');
  return new ConfigError([{ severity: 'error', path: 'tls', message: `${files} not usable: ${errorMessage(error)}` }]);
}

/**
 * The same trust as a PEM bundle, for a client that takes one (grpc-js): ca_file's certificates,
 * checked as for the HTTP exporters, or Node's and the system's CAs; null leaves the client's own.
 */
export function trustedCaPem(caFile: string | undefined): Buffer | null {
  if (caFile !== undefined) return readCas(caFile);
  const list = defaultCas();
  return list === undefined ? null : Buffer.from(list.join('\n'));
}

/** node:tls options for the backend's connections, and for an https:// proxy's (the same trust, no client certificate). */
export interface TlsOptions {
  backend: ConnectionOptions;
  proxy: ConnectionOptions;
}

/**
 * What the settings ask for, made once: the files are read and the secure contexts built now, so
 * that a missing file or a key that does not fit its certificate stops the exporter at start with
 * its setting named, and no connection parses the CA list again.
 */
export function loadTlsOptions(tls: TlsClientConfig): TlsOptions {
  // As the Collector: insecure without ca_file leaves TLS at its defaults (settings unread).
  if (tls.insecure && tls.ca_file === undefined) {
    const secureContext = createSecureContext({ ca: defaultCas() });
    return { backend: { secureContext }, proxy: { secureContext } };
  }
  const versions: SecureContextOptions = { minVersion: SECURE_VERSION[tls.min_version] };
  if (tls.max_version !== undefined) versions.maxVersion = SECURE_VERSION[tls.max_version];
  const ca = tls.ca_file === undefined ? defaultCas() : readCas(tls.ca_file);
  const client: SecureContextOptions = { ...versions, ca };
  if (tls.cert_file !== undefined) client.cert = readTlsFile('cert_file', tls.cert_file);
  if (tls.key_file !== undefined) client.key = readTlsFile('key_file', tls.key_file);
  let backend: SecureContext;
  let proxy: SecureContext;
  try {
    backend = createSecureContext(client);
    proxy = client.cert === undefined ? backend : createSecureContext({ ...versions, ca });
  } catch (error) {
    throw unusableTls(tls, error);
  }
  const rejectUnauthorized = !tls.insecure_skip_verify;
  const options: ConnectionOptions = { secureContext: backend, rejectUnauthorized };
  if (tls.server_name_override !== undefined) options.servername = tls.server_name_override;
  return { backend: options, proxy: { secureContext: proxy, rejectUnauthorized } };
}
