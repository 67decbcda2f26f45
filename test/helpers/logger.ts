// A real pino logger that keeps its lines in memory, for asserting on what components log.
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

export interface MemoryLogger {
  logger: Logger;
  lines: Record<string, unknown>[];
}

export function memoryLogger(): MemoryLogger {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) if (text !== '') lines.push(JSON.parse(text) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'debug', formatters: { level: (label) => ({ level: label }) } }, stream), lines };
}
