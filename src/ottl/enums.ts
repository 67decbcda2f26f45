// OTTL's enum names and their int64 values, as the Collector's contexts define them.

const SEVERITIES = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'];

function named(prefix: string, names: readonly string[]): [string, bigint][] {
  return names.map((name, i) => [`${prefix}${name}`, BigInt(i)]);
}

export const ENUMS: ReadonlyMap<string, bigint> = new Map([
  ['SEVERITY_NUMBER_UNSPECIFIED', 0n],
  ...SEVERITIES.flatMap((level, i) => ['', '2', '3', '4'].map((step, j): [string, bigint] => [`SEVERITY_NUMBER_${level}${step}`, BigInt(i * 4 + j + 1)])),
  ...named('SPAN_KIND_', ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER']),
  ...named('STATUS_CODE_', ['UNSET', 'OK', 'ERROR']),
  ...named('METRIC_DATA_TYPE_', ['NONE', 'GAUGE', 'SUM', 'HISTOGRAM', 'EXPONENTIAL_HISTOGRAM', 'SUMMARY']),
  ...named('AGGREGATION_TEMPORALITY_', ['UNSPECIFIED', 'DELTA', 'CUMULATIVE']),
]);
