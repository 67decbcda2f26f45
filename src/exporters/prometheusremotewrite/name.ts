// OTLP metric names as Prometheus metric names, as the Collector's translator builds them with
// add_metric_suffixes (pkg/translator/prometheus, normalizeName): the name's letters and digits in
// tokens joined by "_", the unit as a suffix (ms → milliseconds, By → bytes, 1/s → per_second),
// "total" last for a monotonic sum, "ratio" for a gauge of unit 1, the namespace in front, and "_"
// before a leading digit. Without suffixes, only characters Prometheus forbids become "_".
import type { Metric } from '../../model/metrics.js';

const UNITS: Readonly<Record<string, string>> = {
  d: 'days',
  h: 'hours',
  min: 'minutes',
  s: 'seconds',
  ms: 'milliseconds',
  us: 'microseconds',
  ns: 'nanoseconds',
  By: 'bytes',
  KiBy: 'kibibytes',
  MiBy: 'mebibytes',
  GiBy: 'gibibytes',
  TiBy: 'tibibytes',
  KBy: 'kilobytes',
  MBy: 'megabytes',
  GBy: 'gigabytes',
  TBy: 'terabytes',
  m: 'meters',
  V: 'volts',
  A: 'amperes',
  J: 'joules',
  W: 'watts',
  g: 'grams',
  Cel: 'celsius',
  Hz: 'hertz',
  '1': '',
  '%': 'percent',
};

const PER_UNITS: Readonly<Record<string, string>> = { s: 'second', m: 'minute', h: 'hour', d: 'day', w: 'week', mo: 'month', y: 'year' };

/** Runs of anything but letters and digits (any script, as Go's unicode.IsLetter and IsDigit) separate tokens. */
const SEPARATORS = /[^\p{L}\p{Nd}]+/u;
const FORBIDDEN = /[^\p{L}\p{Nd}_:]+/u;

const tokens = (text: string, separators = SEPARATORS): string[] => text.split(separators).filter((t) => t !== '');

function unitTokens(unit: string, into: string[]): void {
  const slash = unit.indexOf('/');
  const main = (slash === -1 ? unit : unit.slice(0, slash)).trim();
  const per = slash === -1 ? '' : unit.slice(slash + 1).trim();
  if (main !== '' && !/[{}]/.test(main)) {
    const name = tokens(UNITS[main] ?? main).join('_');
    if (name !== '' && !into.includes(name)) into.push(name);
  }
  if (per !== '' && !/[{}]/.test(per)) {
    const name = tokens(PER_UNITS[per] ?? per).join('_');
    if (name !== '' && !into.includes(name)) into.push('per', name);
  }
}

export interface NameOptions {
  namespace: string;
  addSuffixes: boolean;
}

export function metricName(metric: Metric, options: NameOptions): string {
  if (!options.addSuffixes) {
    const name = tokens(metric.name, FORBIDDEN).join('_');
    if (options.namespace !== '') return `${options.namespace}_${name}`;
    return /^\d/.test(name) ? `_${name}` : name;
  }
  let parts = tokens(metric.name);
  unitTokens(metric.unit, parts);
  if (metric.type === 'sum' && metric.isMonotonic) parts = [...parts.filter((t) => t !== 'total'), 'total'];
  if (metric.unit === '1' && metric.type === 'gauge') parts = [...parts.filter((t) => t !== 'ratio'), 'ratio'];
  if (options.namespace !== '') parts.unshift(options.namespace);
  const name = parts.join('_');
  return /^\d/.test(name) ? `_${name}` : name;
}
