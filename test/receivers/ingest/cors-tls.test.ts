// CORS for browser SDKs and TLS for a directly exposed receiver, on the built server.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_CONFIG, startGateway, type Gateway } from '../../helpers/gateway.js';

const withIngest = (settings: string[]) => (keys: string) => GATEWAY_CONFIG(keys, settings.map((line) => `    ${line}`).join('\n'));

describe('CORS', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await startGateway({ config: withIngest(['cors:', '  allowed_origins: [https://app.example.com, "https://*.shop.example"]', '  allowed_headers: [X-Tenant]', '  max_age: 600']) });
  });
  afterAll(async () => {
    await gw.stop();
  });

  const preflight = (origin: string, headers = 'authorization, content-type') =>
    fetch(`${gw.url}/v1/logs`, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': headers } });

  it.each(['https://app.example.com', 'https://eu.shop.example'])('answers a preflight from %s, before any key is asked for', async (origin) => {
    const response = await preflight(origin, 'authorization, content-type, x-tenant');
    expect(response.status).toBe(204);
    expect(Object.fromEntries([...response.headers].filter(([k]) => k.startsWith('access-control') || k === 'vary'))).toEqual({
      'access-control-allow-origin': origin,
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'authorization, content-type, x-tenant',
      'access-control-max-age': '600',
      vary: 'Origin',
    });
  });

  it('answers a preflight for the read API with GET, and only GET', async () => {
    const ask = (method: string) =>
      fetch(`${gw.url}/api/v1/query/logs`, { method: 'OPTIONS', headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'authorization' } });
    const get = await ask('GET');
    expect(get.status).toBe(204);
    expect(get.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(get.headers.get('access-control-allow-methods')).toBe('GET');
    const post = await ask('POST');
    expect(post.status).toBe(204);
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('gives no CORS headers to an origin or a header it does not allow', async () => {
    for (const response of [await preflight('https://evil.example'), await preflight('https://app.example.com', 'x-other')]) {
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('marks every answer to an allowed origin, errors included, and lets the browser read Retry-After', async () => {
    const ok = await fetch(`${gw.url}/v1/logs`, { method: 'POST', body: '{}', headers: { Origin: 'https://app.example.com', 'Content-Type': 'application/json', Authorization: `Bearer ${gw.keys['default']}` } });
    const denied = await fetch(`${gw.url}/v1/logs`, { method: 'POST', body: '{}', headers: { Origin: 'https://app.example.com' } });
    for (const [response, status] of [
      [ok, 200],
      [denied, 401],
    ] as const) {
      expect(response.status).toBe(status);
      expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(response.headers.get('access-control-expose-headers')).toBe('Retry-After');
    }
  });
});

describe('CORS off (the default)', () => {
  it('answers no preflight and adds no CORS headers', async () => {
    const gw = await startGateway();
    try {
      const response = await fetch(`${gw.url}/v1/logs`, { method: 'OPTIONS', headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'POST' } });
      expect([response.status, response.headers.get('allow'), response.headers.get('access-control-allow-origin')]).toEqual([405, 'POST', null]);
    } finally {
      await gw.stop();
    }
  });
});

describe('TLS', () => {
  it('serves HTTPS with tls.cert_file and tls.key_file', async () => {
    const gw = await startGateway({
      config: (keys) => {
        const dir = join(keys, '..');
        execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`], { stdio: 'ignore' });
        return withIngest(['tls:', `  cert_file: ${dir}/cert.pem`, `  key_file: ${dir}/key.pem`])(keys);
      },
    });
    try {
      const url = gw.url.replace('http://', 'https://');
      const ca = readFileSync(join(gw.dir, 'cert.pem'));
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpsRequest(`${url}/api/v1/ingest`, { method: 'POST', ca, headers: { 'X-Service-Key': gw.keys['default'] } }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end('{"message": "over TLS"}');
      });
      expect(answer).toEqual({ status: 202, body: '{"accepted":1,"skipped":0}' });
      expect(gw.run.lines.find((l) => l.msg === 'Starting HTTP server')?.['tls']).toBe(true);
      await expect(fetch(`${gw.url}/api/v1/ingest`, { method: 'POST', body: '{}' })).rejects.toThrow();
    } finally {
      await gw.stop();
    }
  });
});
