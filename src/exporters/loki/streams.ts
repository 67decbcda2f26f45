// Log rows as Loki streams: labels from the configured resource and record attributes (names by
// Loki's rule), the line in the configured format, the rest as structured metadata, and the
// entries of each stream in time order. One request's rows are of one project (the helper
// partitions by project), so one push never mixes tenants.
import type { AnyValue, Attributes } from '../../model/anyvalue.js';
import { valueText } from '../../model/json.js';
import type { LogRow } from '../../model/logs.js';
import type { Resource, Scope } from '../../model/resource.js';
import { labelName } from '../helper/label-name.js';
import type { LokiConfig } from './config.js';
import { lineOf, type LineFormat } from './line.js';
import { metadataWire } from './push.js';

/** Structured metadata of a resource and scope, which every entry of theirs carries. */
export interface SharedMetadata {
  /** name, value, name, value… */
  pairs: readonly string[];
  /** The same as EntryAdapter fields (structuredMetadata, 3), encoded once for every entry. */
  wire: Uint8Array;
}

export interface LokiEntry {
  timeUnixNano: bigint;
  line: string;
  shared: SharedMetadata;
  /** Its own structured metadata: name, value, name, value… */
  own: readonly string[];
}

export const NO_METADATA: SharedMetadata = { pairs: [], wire: new Uint8Array(0) };

export interface LokiStream {
  /** The label set in Loki's form, {name="value", …}, names in order: also the stream's key. */
  labels: string;
  pairs: readonly (readonly [string, string])[];
  entries: LokiEntry[];
}

/** A label Loki would give the stream of a record without any: what Loki 3's OTLP ingest names it. */
const UNKNOWN_SERVICE: readonly (readonly [string, string])[] = [['service_name', 'unknown_service']];

interface AttributeLabel {
  attribute: string;
  label: string;
}

function attributeLabels(setting: readonly string[] | Readonly<Record<string, string>>): AttributeLabel[] {
  const entries: [string, string][] = Array.isArray(setting) ? setting.map((name: string) => [name, labelName(name)]) : Object.entries(setting);
  return entries.map(([attribute, label]) => ({ attribute, label }));
}

type WellFormed = string & { toWellFormed(): string };

/** A label value as Loki's label parser reads it: a Go string literal, which JSON's escapes are; a lone surrogate can't be written, so it becomes U+FFFD. */
function quoted(value: string): string {
  return JSON.stringify((value as WellFormed).toWellFormed());
}

function labelsText(pairs: readonly (readonly [string, string])[]): string {
  let text = '{';
  for (let i = 0; i < pairs.length; i++) {
    const [name, value] = pairs[i] as readonly [string, string];
    text += `${i === 0 ? '' : ', '}${name}=${quoted(value)}`;
  }
  return `${text}}`;
}

/** Loki's detected_level names, from OTLP's severity number ranges, else from the text. */
export function levelOf(row: LogRow): string {
  const n = row.severityNumber;
  if (n >= 1 && n <= 24) return (['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const)[Math.floor((n - 1) / 4)] as string;
  const text = row.severityText.toLowerCase();
  return text === '' ? 'unknown' : text;
}

function pushMetadata(out: string[], attributes: Attributes, skip: ReadonlySet<string>): void {
  for (const key in attributes) {
    if (skip.has(key)) continue;
    const text = valueText(attributes[key]);
    if (text !== undefined) out.push(labelName(key), text);
  }
}

/** Builds streams from rows, keeping what it worked out per resource and scope across the batches of its exporter. */
export class StreamBuilder {
  private readonly resourceLabels: AttributeLabel[];
  private readonly recordLabels: AttributeLabel[];
  private readonly resourceSkip: ReadonlySet<string>;
  private readonly recordSkip: ReadonlySet<string>;
  private readonly level: boolean;
  private readonly metadata: boolean;
  private readonly format: LineFormat;
  /** Per resource, its label pairs; per resource and scope, the metadata they give every entry. Weak: rows come and go. */
  private readonly byResource = new WeakMap<Resource, (readonly [string, string])[]>();
  private readonly byScope = new WeakMap<Resource, WeakMap<Scope, SharedMetadata>>();

  constructor(config: Pick<LokiConfig, 'labels' | 'structured_metadata' | 'format'>) {
    this.resourceLabels = attributeLabels(config.labels.resource_attributes);
    this.recordLabels = attributeLabels(config.labels.attributes);
    this.resourceSkip = new Set(this.resourceLabels.map((l) => l.attribute));
    this.recordSkip = new Set(this.recordLabels.map((l) => l.attribute));
    this.level = config.labels.level;
    this.metadata = config.structured_metadata;
    this.format = config.format;
  }

  /** `receivedUnixNano` is the time of a record that has neither a time nor an observed time. */
  streams(rows: readonly LogRow[], receivedUnixNano: bigint): LokiStream[] {
    const streams = new Map<string, LokiStream>();
    const perRecord = this.recordLabels.length > 0 || this.level;
    let lastResource: Resource | undefined;
    let lastScope: Scope | undefined;
    let resourcePairs: readonly (readonly [string, string])[] = [];
    let shared = NO_METADATA;
    let lastStream: LokiStream | undefined;
    for (const row of rows) {
      if (row.resource !== lastResource || row.scope !== lastScope) {
        resourcePairs = this.resourcePairs(row.resource);
        shared = this.sharedMetadata(row.resource, row.scope);
        lastStream = perRecord ? undefined : this.stream(streams, resourcePairs);
        lastResource = row.resource;
        lastScope = row.scope;
      }
      const stream = lastStream ?? this.stream(streams, this.recordPairs(resourcePairs, row));
      const time = row.timeUnixNano !== 0n ? row.timeUnixNano : row.observedTimeUnixNano !== 0n ? row.observedTimeUnixNano : receivedUnixNano;
      stream.entries.push({ timeUnixNano: time, line: lineOf(this.format, row), shared, own: this.metadata ? this.ownMetadata(row) : [] });
    }
    const out = [...streams.values()];
    for (const stream of out) inTimeOrder(stream.entries);
    return out;
  }

  private stream(streams: Map<string, LokiStream>, pairs: readonly (readonly [string, string])[]): LokiStream {
    const chosen = pairs.length === 0 ? UNKNOWN_SERVICE : pairs;
    const labels = labelsText(chosen);
    let stream = streams.get(labels);
    if (stream === undefined) streams.set(labels, (stream = { labels, pairs: chosen, entries: [] }));
    return stream;
  }

  private resourcePairs(resource: Resource): readonly (readonly [string, string])[] {
    let pairs = this.byResource.get(resource);
    if (pairs !== undefined) return pairs;
    pairs = [];
    addPairs(pairs, this.resourceLabels, resource.attributes);
    pairs.sort(byName);
    this.byResource.set(resource, pairs);
    return pairs;
  }

  private recordPairs(resourcePairs: readonly (readonly [string, string])[], row: LogRow): (readonly [string, string])[] {
    const pairs = [...resourcePairs];
    addPairs(pairs, this.recordLabels, row.attributes);
    if (this.level && !pairs.some(([name]) => name === 'level')) pairs.push(['level', levelOf(row)]);
    return pairs.sort(byName);
  }

  private sharedMetadata(resource: Resource, scope: Scope): SharedMetadata {
    if (!this.metadata) return NO_METADATA;
    let scopes = this.byScope.get(resource);
    if (scopes === undefined) this.byScope.set(resource, (scopes = new WeakMap()));
    let shared = scopes.get(scope);
    if (shared !== undefined) return shared;
    const out: string[] = [];
    pushMetadata(out, resource.attributes, this.resourceSkip);
    if (scope.name !== '') out.push('scope_name', scope.name);
    if (scope.version !== '') out.push('scope_version', scope.version);
    scopes.set(scope, (shared = { pairs: out, wire: metadataWire(out) }));
    return shared;
  }

  private ownMetadata(row: LogRow): string[] {
    const out: string[] = [];
    pushMetadata(out, row.attributes, this.recordSkip);
    if (row.traceId !== '') out.push('trace_id', row.traceId);
    if (row.spanId !== '') out.push('span_id', row.spanId);
    if (row.severityText !== '') out.push('severity_text', row.severityText);
    if (row.severityNumber !== 0) out.push('severity_number', String(row.severityNumber));
    if (row.flags !== 0) out.push('flags', String(row.flags));
    if (row.eventName !== '') out.push('event_name', row.eventName);
    return out;
  }
}

/** Adds the labels found in `attributes`; a label name already there keeps its first value (Loki refuses a stream with a name twice). */
function addPairs(pairs: (readonly [string, string])[], labels: readonly AttributeLabel[], attributes: Attributes): void {
  for (const { attribute, label } of labels) {
    const value = valueText(attributes[attribute]);
    if (value === undefined || value === '' || pairs.some(([name]) => name === label)) continue;
    pairs.push([label, value]);
  }
}

const byName = (a: readonly [string, string], b: readonly [string, string]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** Sorts by time, keeping the order of equal times; most batches are in order already and are only looked at. */
function inTimeOrder(entries: LokiEntry[]): void {
  for (let i = 1; i < entries.length; i++) {
    if ((entries[i] as LokiEntry).timeUnixNano < (entries[i - 1] as LokiEntry).timeUnixNano) {
      entries.sort((a, b) => (a.timeUnixNano < b.timeUnixNano ? -1 : a.timeUnixNano > b.timeUnixNano ? 1 : 0));
      return;
    }
  }
}
