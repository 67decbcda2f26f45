// Sentry envelopes for the tests: the golden ones the real SDK sent (testdata/sentry/), and
// hand-made ones.
import { readdirSync, readFileSync } from 'node:fs';
import { ROOT } from './cli.js';

const DIR = `${ROOT}testdata/sentry`;

export function golden(file: string): Buffer {
  return readFileSync(`${DIR}/${file}`);
}

/** Every golden envelope, as `lifecycle/name.envelope`. */
export function goldenFiles(): string[] {
  return ['static', 'stream'].flatMap((lifecycle) =>
    readdirSync(`${DIR}/${lifecycle}`)
      .filter((name) => name.endsWith('.envelope'))
      .map((name) => `${lifecycle}/${name}`),
  );
}

/** An item: its header (a `length` is added when `withLength`) and its payload (objects as JSON). */
export interface Item {
  header: Record<string, unknown>;
  payload: unknown;
  withLength?: boolean;
}

export function payloadBytes(payload: unknown): Buffer {
  if (Buffer.isBuffer(payload)) return payload;
  return Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload));
}

/** An envelope as the SDKs write it: the header, then each item's header and payload, lines joined by \n. */
export function envelope(header: Record<string, unknown>, ...items: Item[]): Buffer {
  const parts: Buffer[] = [Buffer.from(JSON.stringify(header))];
  for (const item of items) {
    const payload = payloadBytes(item.payload);
    const itemHeader = item.withLength === true ? { ...item.header, length: payload.length } : item.header;
    parts.push(Buffer.from(`\n${JSON.stringify(itemHeader)}\n`), payload);
  }
  return Buffer.concat(parts);
}
