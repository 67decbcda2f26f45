// The include/exclude properties of the attributes processor (the Collector's filterconfig
// MatchProperties), compiled once into a test of a row: every property given must match; within a
// list, any entry (resources and attributes: every entry).
import { attribute, type Attributes } from '../../model/anyvalue.js';
import type { LogRow } from '../../model/logs.js';
import type { DataPointRow } from '../../model/metrics.js';
import type { SpanRow } from '../../model/traces.js';
import { safeRegex, UnsafeRegexError } from '../../ottl/regex.js';
import { anyValueText, sameValue } from '../../ottl/values.js';
import type { SettingsProblem } from '../../runtime/component.js';
import { fromConfig } from '../helper/actions.js';
import type { MatchSettings } from './config.js';

export type MatchedRow = { signal: 'logs'; row: LogRow } | { signal: 'traces'; row: SpanRow } | { signal: 'metrics'; row: DataPointRow };

type Test = (row: MatchedRow) => boolean;

export function compileMatch(settings: MatchSettings, side: string): { matches: Test } | { problems: SettingsProblem[] } {
  const problems: SettingsProblem[] = [];
  for (const unsupported of ['span_kinds', 'log_severity_number', 'regexp'] as const) {
    if (settings[unsupported] !== undefined) problems.push({ path: [side, unsupported], message: `${unsupported} is not supported in otelgate yet; use the filter or transform processor's conditions for it` });
  }
  const regexp = settings.match_type === 'regexp';
  /** A text test for `pattern`: equality, or the regular expression. */
  const text = (pattern: string, at: (string | number)[]): ((value: string) => boolean) | undefined => {
    if (!regexp) return (value) => value === pattern;
    try {
      const regex = safeRegex(pattern);
      return (value) => regex.test(value);
    } catch (error) {
      problems.push({ path: at, message: error instanceof UnsafeRegexError ? error.message : String(error) });
      return undefined;
    }
  };
  const anyOf = (patterns: readonly string[] | undefined, name: string): ((value: string | undefined) => boolean) | undefined => {
    if (patterns === undefined) return undefined;
    const tests = patterns.map((p, i) => text(p, [side, name, i])).filter((t): t is (value: string) => boolean => t !== undefined);
    return (value) => value !== undefined && tests.some((t) => t(value));
  };
  const allOf = (entries: readonly { key: string; value?: unknown }[] | undefined, name: string): ((attributes: Attributes) => boolean) | undefined => {
    if (entries === undefined) return undefined;
    const tests = entries.map(({ key, value }, i) => {
      if (value === undefined) return (attributes: Attributes) => attribute(attributes, key) !== undefined;
      if (regexp) {
        if (typeof value !== 'string') {
          problems.push({ path: [side, name, i, 'value'], message: 'with match_type regexp, a value is a regular expression (a string)' });
          return () => false;
        }
        const test = text(value, [side, name, i, 'value']);
        return (attributes: Attributes) => {
          const v = attributes[key];
          return typeof v === 'string' && test !== undefined && test(v);
        };
      }
      const expected = fromConfig(value);
      return (attributes: Attributes) => {
        const present = attribute(attributes, key);
        return present !== undefined && sameValue(present, expected);
      };
    });
    return (attributes) => tests.every((t) => t(attributes));
  };

  const tests: Test[] = [];
  const services = anyOf(settings.services, 'services');
  if (services) tests.push(({ row }) => services(typeof row.resource.attributes['service.name'] === 'string' ? row.resource.attributes['service.name'] : undefined));
  const resources = allOf(settings.resources, 'resources');
  if (resources) tests.push(({ row }) => resources(row.resource.attributes));
  const attributes = allOf(settings.attributes, 'attributes');
  if (attributes) tests.push(({ row }) => attributes(row.attributes));
  if (settings.libraries !== undefined) {
    const libraries = settings.libraries.map((library, i) => ({ name: text(library.name, [side, 'libraries', i, 'name']), version: library.version === undefined ? undefined : text(library.version, [side, 'libraries', i, 'version']) }));
    tests.push(({ row }) => libraries.some(({ name, version }) => name !== undefined && name(row.scope.name) && (version === undefined || version(row.scope.version))));
  }
  const spanNames = anyOf(settings.span_names, 'span_names');
  if (spanNames) tests.push((m) => m.signal === 'traces' && spanNames(m.row.name));
  const bodies = anyOf(settings.log_bodies, 'log_bodies');
  if (bodies) tests.push((m) => m.signal === 'logs' && bodies(anyValueText(m.row.body)));
  const severities = anyOf(settings.log_severity_texts, 'log_severity_texts');
  if (severities) tests.push((m) => m.signal === 'logs' && severities(m.row.severityText));
  const metricNames = anyOf(settings.metric_names, 'metric_names');
  if (metricNames) tests.push((m) => m.signal === 'metrics' && metricNames(m.row.metric.name));
  if (tests.length === 0) problems.push({ path: [side], message: 'names no property to match (services, resources, attributes, libraries, span_names, log_bodies, log_severity_texts, metric_names)' });
  return problems.length > 0 ? { problems } : { matches: (row) => tests.every((t) => t(row)) };
}
