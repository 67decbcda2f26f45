// CORS for browser SDKs, as the Collector's confighttp `cors`: off unless allowed_origins is set.
// Preflights are answered before authentication (browsers send no credentials on them).
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Always allowed, besides the configured ones: what an OTLP or ingest request from a browser carries. */
const BASE_HEADERS = ['accept', 'content-type', 'content-encoding', 'x-requested-with', 'authorization', 'x-service-key'];

export interface CorsSettings {
  allowed_origins: string[];
  allowed_headers: string[];
  max_age: number;
}

function originPattern(origin: string): RegExp {
  const escaped = origin.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*');
  return new RegExp(`^${escaped}$`, 'i');
}

export interface Cors {
  /** Adds the CORS headers an allowed origin gets on any answer. */
  decorate(req: IncomingMessage, res: ServerResponse): void;
  /** Answers a preflight for a path served with `method` and returns true, or returns false for any other request. */
  preflight(req: IncomingMessage, res: ServerResponse, method: 'POST' | 'GET'): boolean;
}

export function cors(settings: CorsSettings | undefined): Cors | undefined {
  if (settings === undefined || settings.allowed_origins.length === 0) return undefined;
  const patterns = settings.allowed_origins.map(originPattern);
  const allowedHeaders = new Set([...BASE_HEADERS, ...settings.allowed_headers.map((h) => h.toLowerCase())]);
  const allowAll = settings.allowed_headers.includes('*');
  const allowed = (origin: string | undefined): origin is string => origin !== undefined && patterns.some((p) => p.test(origin));
  return {
    decorate(req, res) {
      const origin = req.headers.origin;
      res.setHeader('Vary', 'Origin');
      if (!allowed(origin)) return;
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Expose-Headers', 'Retry-After');
    },
    preflight(req, res, method) {
      if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) return false;
      const origin = req.headers.origin;
      const headers: Record<string, string> = { Vary: 'Origin' };
      const requested = (req.headers['access-control-request-headers'] ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter((h) => h !== '');
      if (allowed(origin) && req.headers['access-control-request-method'] === method && requested.every((h) => allowAll || allowedHeaders.has(h))) {
        headers['Access-Control-Allow-Origin'] = origin;
        headers['Access-Control-Allow-Methods'] = method;
        if (requested.length > 0) headers['Access-Control-Allow-Headers'] = requested.join(', ');
        if (settings.max_age > 0) headers['Access-Control-Max-Age'] = String(settings.max_age);
      }
      res.writeHead(204, headers);
      res.end();
      return true;
    },
  };
}
