// A CA, a server and a client certificate made at test time by the openssl CLI into a temporary
// folder (keys are never committed): "ca" signs "server" (for 127.0.0.1 and localhost) and
// "client"; "other-ca" signs nothing the tests trust.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Certificates {
  dir: string;
  /** The path of a file in the folder: ca.crt, server.key, client.crt, ... */
  file(name: string): string;
  remove(): void;
}

const CA_EXTENSIONS = '[req]\ndistinguished_name=dn\n[dn]\n[v3]\nbasicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign';

export function makeCertificates(): Certificates {
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-tls-'));
  const file = (name: string): string => join(dir, name);
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  };
  /** A P-256 key and a certificate for it, signed by `ca`, or self-signed as a CA when `ca` is undefined. */
  const certificate = (name: string, subject: string, ca: string | undefined, extensions: string): void => {
    writeFileSync(file(`${name}.ext`), `${extensions}\n`);
    openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', `${name}.key`);
    if (ca === undefined) {
      openssl('req', '-x509', '-new', '-key', `${name}.key`, '-subj', subject, '-days', '2', '-out', `${name}.crt`, '-extensions', 'v3', '-config', `${name}.ext`);
      return;
    }
    openssl('req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`);
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-days', '2', '-out', `${name}.crt`, '-extfile', `${name}.ext`);
  };
  certificate('ca', '/CN=otelgate test CA', undefined, CA_EXTENSIONS);
  certificate('other-ca', '/CN=another CA', undefined, CA_EXTENSIONS);
  certificate('server', '/CN=backend', 'ca', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth');
  certificate('client', '/CN=otelgate client', 'ca', 'extendedKeyUsage=clientAuth');
  return { dir, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
