// Level names → OTel severity numbers (the log data model's ranges: TRACE 1-4, DEBUG 5-8,
// INFO 9-12, WARN 13-16, ERROR 17-20, FATAL 21-24), including the syslog names.

const LEVELS: Record<string, number> = {
  trace: 1,
  debug: 5,
  info: 9,
  information: 9,
  informational: 9,
  notice: 10,
  warn: 13,
  warning: 13,
  error: 17,
  err: 17,
  fatal: 21,
  critical: 21,
  crit: 21,
  panic: 21,
  alert: 22,
  emergency: 23,
  emerg: 23,
};

/** The severity number for a level name (any case); 0 (unspecified) for a name not in the table. */
export function severityNumber(level: string): number {
  const name = level.trim().toLowerCase();
  // Own keys only: "constructor" is no level.
  return Object.hasOwn(LEVELS, name) ? (LEVELS[name] as number) : 0;
}
