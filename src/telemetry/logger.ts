// otelgate's own log lines: one structured line per event, JSON when nobody reads them on a
// terminal, readable lines when somebody does. Written synchronously so nothing is lost on exit.
import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';

// pino-pretty only for readable lines: a JSON logger (any process whose stderr is not a terminal)
// never loads it.
const require = createRequire(import.meta.url);

export interface LogSettings {
  level: 'debug' | 'info' | 'warn' | 'error';
  encoding?: 'console' | 'json' | undefined;
}

export function createLogger(settings: LogSettings, fd = 2, isTTY = process.stderr.isTTY === true): Logger {
  const encoding = settings.encoding ?? (isTTY ? 'console' : 'json');
  const options = {
    level: settings.level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  if (encoding === 'json') return pino(options, pino.destination({ fd, sync: true }));
  const pretty = require('pino-pretty') as typeof import('pino-pretty');
  return pino(options, pretty({ destination: fd, sync: true, colorize: isTTY, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss.l', singleLine: true }));
}
