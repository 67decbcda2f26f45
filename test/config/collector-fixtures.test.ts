// The Collector's own testdata configs of the processors otelgate has (testdata/collector/<type>/,
// each the Collector's file unchanged after a first line naming its path and commit), loaded and
// validated as otelgate validates a config file. Each processor id in each file either validates
// unchanged, or fails with the message that names what otelgate lacks (a gap docs/processors.md or
// the processor's README lists), or, in the files the Collector keeps to test its own refusals
// (bad_syntax_*, *_invalid*, unknown_*), with otelgate's message for the same mistake.
//
// Most of the files hold processors only, at the top (`filter/ottl:`), as the Collector's config
// tests read them: the reader below makes them a `processors:` section, its provenance line becoming
// `processors:` and the Collector's lines indented by two, so that every line keeps its number. A
// frame adds the nop receiver and exporter and a logs pipeline, as a second --config would. A
// processor in no pipeline is validated all the same; its "defined but not used" warning is left out.
//
// Not taken: transformprocessor/testdata/invalid_config_*.yaml and operations_config.yaml, written
// in the transform processor's first syntax (`traces.queries`, `operations`), which the Collector
// no longer reads; transformprocessor/testdata/logs/*.yaml, which are data, not configs.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { builtinRegistry } from '../../src/components.js';
import { loadConfig } from '../../src/config/load.js';
import { validateConfig } from '../../src/config/validate.js';
import { ConfigError, type ConfigIssue } from '../../src/errors.js';
import { ROOT } from '../helpers/cli.js';

const DIR = join(ROOT, 'testdata', 'collector');
const FRAME = 'frame.yaml';
const FRAME_TEXT = 'receivers: {nop: }\nexporters: {nop: }\nservice: {pipelines: {logs: {receivers: [nop], exporters: [nop]}}}\n';

type Section = Record<string, unknown>;

function collectorText(file: string): string {
  return readFileSync(join(DIR, file), 'utf8');
}

function hasProcessorsSection(text: string): boolean {
  const doc = parse(text) as Section;
  return 'processors' in doc;
}

function readWrapped(file: string): string {
  if (file === FRAME) return FRAME_TEXT;
  const text = readFileSync(file, 'utf8');
  if (hasProcessorsSection(text)) return text;
  const [, ...lines] = text.split('\n');
  return ['processors:', ...lines.map((line) => (line === '' ? line : `  ${line}`))].join('\n');
}

/** The processor ids a file defines, in its order. */
function processorIds(file: string): string[] {
  const text = collectorText(file);
  const doc = parse(text) as Section;
  return Object.keys(hasProcessorsSection(text) ? (doc.processors as Section) : doc);
}

const validated = new Map<string, ConfigIssue[]>();

/** Every issue of the file's config, errors and warnings, as otelgate reports them (validated once a file). */
function issuesOf(file: string): ConfigIssue[] {
  const known = validated.get(file);
  if (known !== undefined) return known;
  let issues: ConfigIssue[];
  try {
    issues = validateConfig(loadConfig([FRAME, join(DIR, file)], {}, readWrapped), builtinRegistry()).warnings;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    issues = error.issues;
  }
  validated.set(file, issues);
  return issues;
}

/** The issues of one processor, each as `path under the processor: message`. */
function issuesOfProcessor(issues: readonly ConfigIssue[], id: string): string[] {
  const prefix = `processors.${id}`;
  return issues
    .filter((i) => i.path === prefix || i.path.startsWith(`${prefix}.`))
    .filter((i) => !(i.severity === 'warning' && i.message.endsWith('is defined but not used in any pipeline; it will not be started')))
    .map((i) => `${i.severity === 'warning' ? 'warning: ' : ''}${i.path === prefix ? '' : `${i.path.slice(prefix.length + 1)}: `}${i.message}`);
}

const OK = 'validates';
type Expected = typeof OK | readonly string[];

const OLD = (signal: 'logs' | 'metrics', side: 'include' | 'exclude'): string =>
  `${signal}.${side}: the older include/exclude matching is not supported in otelgate; write it as OTTL conditions under ${signal === 'logs' ? 'logs.log_record' : 'metrics.metric'}, e.g. 'resource.attributes["service.name"] == "checkout"'`;
const OLD_LOGS = (side: 'include' | 'exclude'): string => OLD('logs', side);
const OLD_LOGS_BOTH = [OLD_LOGS('include'), OLD_LOGS('exclude')];
const OLD_METRICS = (side: 'include' | 'exclude'): string => OLD('metrics', side);
const OLD_METRICS_BOTH = [OLD_METRICS('include'), OLD_METRICS('exclude')];
const OLD_SPANS = (setting: 'spans' | 'span_events'): string =>
  `${setting}: the older include/exclude matching is not supported in otelgate; write it as OTTL conditions under ${setting === 'spans' ? 'traces.span' : 'traces.spanevent'}, e.g. 'resource.attributes["service.name"] == "checkout"'`;
const FILTER_UNKNOWN = (setting: string): string => `${setting}: unknown setting "${setting}". Valid settings: error_mode, logs, traces, metrics, spans, span_events.`;
const KEY_NOT_A_STRING = (at: string): string => `${at}: "attributes[test] == \\"pass\\"", column 12: expected a string or an integer as a key but found "test"`;
const NO_CLOSING = (at: string, statement: string, found: string): string => `${at}: ${JSON.stringify(statement)}, column 18: expected "," or ")" in the arguments of set but found "${found}"`;
const NOT_AN_EDITOR = (at: string): string =>
  `${at}: "not_a_function(attributes, [\\"http.method\\", \\"http.path\\"])", column 1: not_a_function is not an editor otelgate has. Valid editors: set, delete_key, delete_matching_keys, keep_keys, keep_matching_keys, replace_pattern, replace_all_patterns, truncate_all, limit, merge_maps, flatten, append, replace_match, replace_all_matches.`;

const FIXTURES: Record<string, Record<string, Expected>> = {
  'attributes/config.yaml': {
    'attributes/insert': OK,
    // The Collector refuses it too, when it creates the processor (attraction.go: "Field "pattern"
    // contains at least one unnamed matcher group"); its config test only reads the settings.
    'attributes/regex_insert': ['actions[0]: pattern has a group without a name; name every group, or make it (?:...)'],
    'attributes/update': OK,
    'attributes/upsert': OK,
    'attributes/delete': OK,
    'attributes/hash': OK,
    'attributes/convert': OK,
    'attributes/excludemulti': OK,
    'attributes/excluderesources': OK,
    'attributes/excludelibrary': OK,
    'attributes/includeservices': OK,
    'attributes/selectiveprocessing': OK,
    'attributes/complex': OK,
    'attributes/example': OK,
    'attributes/regexp': OK,
    'attributes/regexp2': OK,
    'attributes/log_body_regexp': OK,
    'attributes/log_severity_regexp': OK,
    'attributes/from_context': OK,
  },
  'filter/config_expr.yaml': { 'filter/empty': [OLD_METRICS('include')], 'filter/include': [OLD_METRICS('include')], 'filter/exclude': [OLD_METRICS('exclude')], 'filter/includeexclude': OLD_METRICS_BOTH },
  'filter/config_invalid.yaml': { 'filter/include': [OLD_METRICS('include')] },
  'filter/config_logs_body_regexp.yaml': { 'filter/include': [OLD_LOGS('include')], 'filter/exclude': [OLD_LOGS('exclude')], 'filter/includeexclude': OLD_LOGS_BOTH },
  'filter/config_logs_body_strict.yaml': { 'filter/include': [OLD_LOGS('include')], 'filter/exclude': [OLD_LOGS('exclude')], 'filter/includeexclude': OLD_LOGS_BOTH },
  'filter/config_logs_invalid_severity.yaml': { 'filter/invalid_include_severity': [OLD_LOGS('include')] },
  'filter/config_logs_min_severity.yaml': { 'filter/include': [OLD_LOGS('include')], 'filter/exclude': [OLD_LOGS('exclude')], 'filter/includeexclude': OLD_LOGS_BOTH },
  'filter/config_logs_record_attributes_regexp.yaml': {
    'filter/empty': [OLD_LOGS('include')],
    'filter/include': [OLD_LOGS('include')],
    'filter/exclude': [OLD_LOGS('exclude')],
    'filter/includeexclude': OLD_LOGS_BOTH,
  },
  'filter/config_logs_record_attributes_strict.yaml': {
    'filter/empty': [OLD_LOGS('include')],
    'filter/include': [OLD_LOGS('include')],
    'filter/exclude': [OLD_LOGS('exclude')],
    'filter/includeexclude': OLD_LOGS_BOTH,
  },
  'filter/config_logs_regexp.yaml': { 'filter/empty': [OLD_LOGS('include')], 'filter/include': [OLD_LOGS('include')], 'filter/exclude': [OLD_LOGS('exclude')], 'filter/includeexclude': OLD_LOGS_BOTH },
  'filter/config_logs_severity_regexp.yaml': { 'filter/include': [OLD_LOGS('include')], 'filter/exclude': [OLD_LOGS('exclude')], 'filter/includeexclude': OLD_LOGS_BOTH },
  'filter/config_logs_severity_strict.yaml': { 'filter/include': [OLD_LOGS('include')], 'filter/exclude': [OLD_LOGS('exclude')], 'filter/includeexclude': OLD_LOGS_BOTH },
  'filter/config_logs_strict.yaml': { 'filter/empty': [OLD_LOGS('include')], 'filter/include': [OLD_LOGS('include')], 'filter/exclude': [OLD_LOGS('exclude')], 'filter/includeexclude': OLD_LOGS_BOTH },
  'filter/config_ottl.yaml': {
    'filter/ottl': OK,
    'filter/multiline': OK,
    // `spans` is the older include/exclude matching of spans, which otelgate does not have.
    'filter/spans_mix_config': [OLD_SPANS('spans')],
    // The Collector's metric context has no attributes either (a metric's are its metadata).
    'filter/metrics_mix_config': [
      OLD_METRICS('include'),
      'metrics.metric[0]: "attributes[\\"test\\"] == \\"pass\\"", column 1: attributes["test"] is not a path of the metric context. Did you mean "resource.attributes"?',
    ],
    'filter/logs_mix_config': [OLD_LOGS('include')],
    'filter/bad_syntax_span': [KEY_NOT_A_STRING('traces.span[0]')],
    'filter/bad_syntax_spanevent': [KEY_NOT_A_STRING('traces.spanevent[0]')],
    'filter/bad_syntax_metric': ['metrics.metric[0]: "resource.attributes[test] == \\"pass\\"", column 21: expected a string or an integer as a key but found "test"'],
    'filter/bad_syntax_datapoint': [KEY_NOT_A_STRING('metrics.datapoint[0]')],
    'filter/bad_syntax_log': [KEY_NOT_A_STRING('logs.log_record[0]')],
  },
  'filter/config_profiles.yaml': { 'filter/profiles': [FILTER_UNKNOWN('profiles')] },
  'filter/config_regexp.yaml': { filter: OK, 'filter/include': [OLD_METRICS('include')], 'filter/exclude': [OLD_METRICS('exclude')], 'filter/unlimitedcache': [OLD_METRICS('include')], 'filter/limitedcache': [OLD_METRICS('exclude')] },
  // `span_events` is the older include/exclude matching of span events.
  'filter/config_span_events_regexp.yaml': {
    'filter/empty': [OLD_SPANS('span_events')],
    'filter/include': [OLD_SPANS('span_events')],
    'filter/exclude': [OLD_SPANS('span_events')],
    'filter/includeexclude': [OLD_SPANS('span_events')],
    'filter/includeexcludewithnames': [OLD_SPANS('span_events')],
  },
  'filter/config_span_events_strict.yaml': {
    'filter/empty': [OLD_SPANS('span_events')],
    'filter/include': [OLD_SPANS('span_events')],
    'filter/exclude': [OLD_SPANS('span_events')],
    'filter/includeexclude': [OLD_SPANS('span_events')],
    'filter/includeexcludewithnames': [OLD_SPANS('span_events')],
  },
  'filter/config_strict.yaml': { 'filter/empty': [OLD_METRICS('include')], 'filter/include': [OLD_METRICS('include')], 'filter/exclude': [OLD_METRICS('exclude')], 'filter/includeexclude': OLD_METRICS_BOTH },
  'filter/config_traces.yaml': { 'filter/spans': [OLD_SPANS('spans')] },
  'filter/config_traces_invalid.yaml': { 'filter/spans': [OLD_SPANS('spans')] },
  'probabilistic_sampler/config.yaml': { probabilistic_sampler: OK, 'probabilistic_sampler/logs': OK },
  'redaction/config.yaml': { redaction: OK, 'redaction/empty': OK },
  // Refused as the Collector refuses it: masking_string and hash_function together.
  'redaction/config_invalid.yaml': {
    'redaction/hash_function_and_masking_string_set': ['masking_string: masking_string and hash_function cannot both be set: what is masked is either replaced by the masking string or by its hash; remove one'],
  },
  'redaction/empty.yaml': { redaction: OK },
  // resource/empty is refused as the Collector's Validate refuses it.
  'resource/config.yaml': { resource: OK, 'resource/empty': ['attributes: missing required field "attributes": give at least one action'] },
  'transform/config.yaml': {
    transform: OK,
    'transform/with_conditions': OK,
    'transform/ignore_errors': OK,
    'transform/bad_syntax_log': [NO_CLOSING('log_statements[0].statements[0]', 'set(body, "bear" where attributes["http.path"] == "/animal"', 'where')],
    'transform/bad_syntax_metric': [NO_CLOSING('metric_statements[0].statements[0]', 'set(name, "bear" where attributes["http.path"] == "/animal"', 'where')],
    'transform/bad_syntax_trace': [NO_CLOSING('trace_statements[0].statements[0]', 'set(name, "bear" where attributes["http.path"] == "/animal"', 'where')],
    'transform/bad_syntax_multi_signal': [
      NO_CLOSING('log_statements[0].statements[0]', 'set(body, "bear" none["http.path"] == "/animal"', 'none'),
      NO_CLOSING('trace_statements[0].statements[0]', 'set(name, "bear" where attributes["http.path"] == "/animal"', 'where'),
      NO_CLOSING('metric_statements[0].statements[0]', 'set(name, "bear" attributes["http.path"] == "/animal"', 'attributes'),
    ],
    'transform/unknown_function_log': [NOT_AN_EDITOR('log_statements[0].statements[1]')],
    'transform/unknown_function_metric': [NOT_AN_EDITOR('metric_statements[0].statements[1]')],
    'transform/unknown_function_trace': [NOT_AN_EDITOR('trace_statements[0].statements[1]')],
    'transform/unknown_context': ['trace_statements[0].context: must be one of span, resource, scope, spanevent (got the string "test")'],
    'transform/unknown_error_mode': ['error_mode: must be one of ignore, silent, propagate (got the string "test")'],
    'transform/structured_configuration_with_path_context': OK,
    'transform/structured_configuration_with_inferred_context': OK,
    'transform/flat_configuration': OK,
    'transform/mixed_configuration_styles': OK,
    // shared_cache (the Collector's cache shared between the statements of a context) is not otelgate's.
    'transform/with_shared_cache_key': ['metric_statements[0].shared_cache: unknown setting "shared_cache". Valid settings: context, error_mode, conditions, statements.'],
    'transform/context_statements_error_mode': OK,
  },
};

describe('the Collector\'s testdata configs of the processors otelgate has', () => {
  it('are all in the table, each file with all its processor ids in order', () => {
    const files = readdirSync(DIR)
      .filter((name) => statSync(join(DIR, name)).isDirectory())
      .flatMap((type) => readdirSync(join(DIR, type)).map((name) => `${type}/${name}`))
      .sort();
    expect(files).toEqual(Object.keys(FIXTURES).sort());
    for (const [file, expected] of Object.entries(FIXTURES)) expect([file, processorIds(file)]).toEqual([file, Object.keys(expected)]);
  });

  it.each(Object.keys(FIXTURES))('%s has no problem outside its processors once framed', (file) => {
    expect(issuesOf(file).filter((i) => !i.path.startsWith('processors.'))).toEqual([]);
  });

  it.each(Object.keys(FIXTURES))('%s says where it comes from', (file) => {
    const [type = '', name = ''] = file.split('/');
    const folder = `${type.replaceAll('_', '')}processor`;
    expect(collectorText(file).split('\n')[0]).toMatch(new RegExp(`^# From open-telemetry/opentelemetry-collector-contrib processor/${folder}/testdata/${name.replaceAll('.', '\\.')} at commit [0-9a-f]{40}, unchanged below this line\\.$`));
  });

  it.each(Object.entries(FIXTURES).flatMap(([file, ids]) => Object.entries(ids).map(([id, expected]) => [file, id, expected] as const)))('%s: %s', (file, id, expected) => {
    expect(issuesOfProcessor(issuesOf(file), id)).toEqual(expected === OK ? [] : expected);
  });
});
