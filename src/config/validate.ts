// Validates a loaded config against the registry before anything starts: the top-level shape,
// every component's settings (filling their defaults), and the wiring of service.pipelines.
// Every mistake is collected, located in its file and reported at once.
import { ConfigError, type ConfigIssue } from '../errors.js';
import { isSignal, SIGNALS, type Signal } from '../model/signal.js';
import { bindFactory, parseComponentId, signalsOf, type BoundFactory, type Factory, type Kind } from '../runtime/component.js';
import type { Registry } from '../runtime/registry.js';
import { check } from './ajv.js';
import { batchIntoQueues } from './batch-to-queue.js';
import { collectorOnly } from './collector-names.js';
import { durationMs } from './duration.js';
import type { LoadedConfig } from './load.js';
import { formatPath, locate, type ConfigPath } from './path.js';
import { ConfigSchema, type TelemetrySettings } from './schema.js';
import { hint } from './suggest.js';

export interface ComponentConfig {
  id: string;
  type: string;
  kind: Kind;
  factory: Factory;
  /** Validated settings with every default filled in. */
  config: unknown;
  /** The factory bound to `config`: what the service creates the component with. */
  bound: BoundFactory;
}

export interface PipelineConfig {
  id: string;
  signal: Signal;
  receivers: string[];
  processors: string[];
  exporters: string[];
}

export interface ResolvedConfig {
  components: { [K in Kind]: Map<string, ComponentConfig> };
  service: {
    extensions: string[];
    pipelines: PipelineConfig[];
    telemetry: TelemetrySettings;
    shutdownTimeoutMs: number;
    workers: number;
  };
  warnings: ConfigIssue[];
}

const SECTIONS: readonly (readonly [string, Kind])[] = [
  ['receivers', 'receiver'],
  ['processors', 'processor'],
  ['exporters', 'exporter'],
  ['extensions', 'extension'],
];
const PIPELINE_LISTS: readonly (readonly ['receivers' | 'processors' | 'exporters', Kind])[] = [
  ['receivers', 'receiver'],
  ['processors', 'processor'],
  ['exporters', 'exporter'],
];

type Map_ = Record<string, unknown>;
const isMap = (v: unknown): v is Map_ => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Two ways the Collector reads settings that a schema alone would refuse: a block left empty
 * (`batch:`) is that block with its defaults, so `sending_queue: {batch: }` turns batching on;
 * and a duration written as the number 0 (`max_elapsed_time: 0`, as its READMEs write it) is 0.
 */
function asTheCollectorReads(schema: unknown, value: Map_): void {
  const properties = isMap(schema) && isMap(schema['properties']) ? schema['properties'] : {};
  for (const [key, sub] of Object.entries(properties)) {
    if (!isMap(sub)) continue;
    if (sub['format'] === 'duration' && value[key] === 0) value[key] = '0';
    if (sub['type'] !== 'object') continue;
    if (value[key] === null) value[key] = {};
    const inner = value[key];
    if (isMap(inner)) asTheCollectorReads(sub, inner);
  }
}

export function validateConfig(loaded: LoadedConfig, registry: Registry): ResolvedConfig {
  const issues: ConfigIssue[] = [...loaded.issues];
  // A value whose reference could not be expanded is already reported; what it then fails here follows from that.
  const unexpanded = loaded.issues.filter((i) => i.severity === 'error').map((i) => i.path);
  const report = (severity: ConfigIssue['severity'], path: ConfigPath, message: string): void => {
    const formatted = formatPath(path);
    if (unexpanded.some((p) => formatted === p || formatted.startsWith(`${p}.`) || formatted.startsWith(`${p}[`))) return;
    issues.push({ severity, ...locate(loaded.sources, path), path: formatted, message });
  };
  const raw = structuredClone(loaded.raw) as Map_;
  for (const [section] of SECTIONS) if (raw[section] === null) raw[section] = {};
  for (const problem of check(ConfigSchema, raw)) report('error', problem.path, problem.message);

  const components = { receiver: new Map(), processor: new Map(), exporter: new Map(), extension: new Map() } as ResolvedConfig['components'];
  const defined = { receiver: new Set<string>(), processor: new Set<string>(), exporter: new Set<string>(), extension: new Set<string>() };
  // Every component of a known type, its settings valid or not: a pipeline's use of it is still checked.
  const typed = { receiver: new Map(), processor: new Map(), exporter: new Map(), extension: new Map() } as Record<Kind, Map<string, { type: string; factory: Factory }>>;
  for (const [section, kind] of SECTIONS) {
    const entries = raw[section];
    if (!isMap(entries)) continue;
    for (const [id, value] of Object.entries(entries)) {
      defined[kind].add(id);
      const path = [section, id];
      const parsed = parseComponentId(id);
      if (typeof parsed === 'string') {
        report('error', path, parsed);
        continue;
      }
      const factory: Factory | undefined = registry.get(kind, parsed.type);
      if (factory === undefined) {
        report('error', path, collectorOnly(kind, parsed.type) ?? `unknown ${kind} type "${parsed.type}".${hint(parsed.type, registry.types(kind), `${kind} types`)}`);
        continue;
      }
      typed[kind].set(id, { type: parsed.type, factory });
      const config = value ?? {};
      if (!isMap(config)) {
        report('error', path, `the settings of ${kind} "${id}" must be a mapping (or left empty for the defaults)`);
        continue;
      }
      asTheCollectorReads(factory.schema, config);
      const problems = check(factory.schema, config);
      if (problems.length === 0 && factory.validate !== undefined) problems.push(...factory.validate(config));
      for (const problem of problems) report('error', [...path, ...problem.path], problem.message);
      if (problems.length === 0) components[kind].set(id, { id, type: parsed.type, kind, factory, config, bound: bindFactory(factory, config) });
    }
  }

  const service = isMap(raw['service']) ? raw['service'] : {};
  const pipelines: PipelineConfig[] = [];
  const used = new Set<string>();
  const rawPipelines = service['pipelines'];
  if (isMap(rawPipelines)) {
    if (Object.keys(rawPipelines).length === 0) {
      report('error', ['service', 'pipelines'], 'no pipelines are defined; add at least one, for example service.pipelines.logs');
    }
    for (const [pipelineId, pipeline] of Object.entries(rawPipelines)) {
      const path = ['service', 'pipelines', pipelineId];
      const prefix = pipelineId.split('/')[0] as string;
      // A bad id is reported, and what the pipeline lists is still checked, all but against its signal.
      const signal = isSignal(prefix) && !pipelineId.endsWith('/') ? prefix : undefined;
      if (signal === undefined) {
        report('error', path, `"${pipelineId}" is not a pipeline id: write logs, traces or metrics, optionally followed by /name.${hint(prefix, SIGNALS, 'signals')}`);
      }
      if (!isMap(pipeline)) continue;
      const lists: Pick<PipelineConfig, 'receivers' | 'processors' | 'exporters'> = { receivers: [], processors: [], exporters: [] };
      for (const [list, kind] of PIPELINE_LISTS) {
        const refs = pipeline[list];
        if (!Array.isArray(refs)) continue;
        refs.forEach((ref: unknown, i) => {
          if (typeof ref !== 'string') return;
          const refPath = [...path, list, i];
          if (refs.indexOf(ref) !== i) {
            report('error', refPath, `${kind} "${ref}" is listed more than once in this pipeline`);
            return;
          }
          const component = typed[kind].get(ref);
          if (component === undefined) {
            if (!defined[kind].has(ref)) {
              const ids = [...defined[kind]];
              const fix = ids.length === 0 ? ` Define it under ${list}.` : hint(ref, ids, `${list}`);
              report('error', refPath, `${kind} "${ref}" is not defined in ${list}.${fix}`);
            }
            return;
          }
          used.add(`${kind}:${ref}`);
          if (signal === undefined) return;
          const signals = signalsOf(component.factory);
          if (!signals.includes(signal)) {
            report('error', refPath, `${kind} "${ref}" does not support ${signal}; its type "${component.type}" supports ${signals.join(', ') || 'no signals'}`);
            return;
          }
          lists[list].push(ref);
        });
      }
      if (signal !== undefined) pipelines.push({ id: pipelineId, signal, ...lists });
    }
  }

  const extensions: string[] = [];
  const rawExtensions = service['extensions'];
  if (Array.isArray(rawExtensions)) {
    rawExtensions.forEach((ref: unknown, i) => {
      if (typeof ref !== 'string') return;
      if (!defined.extension.has(ref)) {
        report('error', ['service', 'extensions', i], `extension "${ref}" is not defined in extensions.${hint(ref, [...defined.extension], 'extensions')}`);
      } else if (components.extension.has(ref)) {
        used.add(`extension:${ref}`);
        extensions.push(ref);
      }
    });
  }

  const workers = service['workers'];
  if (typeof workers === 'number' && workers > 1) {
    for (const [, kind] of SECTIONS) {
      for (const [id, component] of components[kind]) {
        if (!used.has(`${kind}:${id}`) || component.factory.singleProcess === undefined) continue;
        report(
          'error',
          ['service', 'workers'],
          `${workers} workers would each run ${kind} "${id}", but ${component.factory.singleProcess}; set service.workers to 1, or run it in an otelgate of its own`,
        );
      }
    }
  }

  if (issues.some((i) => i.severity === 'error')) throw new ConfigError(issues);

  for (const carried of batchIntoQueues(components.processor, components.exporter, pipelines)) report('warning', ['processors', carried.processor], carried.message);

  // Only for a config without errors: next to one, an unused component is usually its consequence.
  for (const [section, kind] of SECTIONS) {
    for (const id of components[kind].keys()) {
      if (used.has(`${kind}:${id}`)) continue;
      const where = kind === 'extension' ? 'listed in service.extensions' : 'used in any pipeline';
      report('warning', [section, id], `${kind} "${id}" is defined but not ${where}; it will not be started`);
    }
  }

  return {
    components,
    service: {
      extensions,
      pipelines,
      telemetry: service['telemetry'] as TelemetrySettings,
      shutdownTimeoutMs: durationMs(service['shutdown_timeout'] as string),
      workers: service['workers'] as number,
    },
    warnings: issues,
  };
}
