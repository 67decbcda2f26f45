// Which Loki stream a log record goes to: labels from the configured resource and record
// attributes (names by Loki's rule) and the level if asked, as Loki writes a label set; and the
// structured metadata every record of a resource and scope carries.
import type { Attributes } from '../../model/anyvalue.js';
import { valueText } from '../../model/json.js';
import type { LogRow } from '../../model/logs.js';
import type { Resource, Scope } from '../../model/resource.js';
import { labelName } from '../helper/label-name.js';
import type { LokiConfig } from './config.js';

type Pair = readonly [string, string];

/** A label Loki would give the stream of a record without any: what Loki 3's OTLP ingest names it. */
const UNKNOWN_SERVICE: readonly Pair[] = [['service_name', 'unknown_service']];

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

/** The label set in Loki's form, {name="value", …}, names in order: also the stream's key. */
function labelsText(pairs: readonly Pair[]): string {
  const chosen = pairs.length === 0 ? UNKNOWN_SERVICE : pairs;
  let text = '{';
  for (let i = 0; i < chosen.length; i++) {
    const [name, value] = chosen[i] as Pair;
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

/** Adds the labels found in `attributes`; a label name already there keeps its first value (Loki refuses a stream with a name twice). */
function addPairs(pairs: Pair[], labels: readonly AttributeLabel[], attributes: Attributes): void {
  for (const { attribute, label } of labels) {
    const value = valueText(attributes[attribute]);
    if (value === undefined || value === '' || pairs.some(([name]) => name === label)) continue;
    pairs.push([label, value]);
  }
}

const byName = (a: Pair, b: Pair): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

export class StreamLabels {
  /** Whether a record's own attributes or severity take part in its labels: else its resource's are its stream's. */
  readonly perRecord: boolean;
  /** Attributes used as labels, which are not structured metadata too. */
  readonly resourceSkip: ReadonlySet<string>;
  readonly recordSkip: ReadonlySet<string>;
  private readonly resourceLabels: AttributeLabel[];
  private readonly recordLabels: AttributeLabel[];
  private readonly level: boolean;
  /** Per resource, its label pairs. Weak: rows come and go. */
  private readonly byResource = new WeakMap<Resource, Pair[]>();

  constructor(config: Pick<LokiConfig, 'labels'>) {
    this.resourceLabels = attributeLabels(config.labels.resource_attributes);
    this.recordLabels = attributeLabels(config.labels.attributes);
    this.resourceSkip = new Set(this.resourceLabels.map((l) => l.attribute));
    this.recordSkip = new Set(this.recordLabels.map((l) => l.attribute));
    this.level = config.labels.level;
    this.perRecord = this.recordLabels.length > 0 || this.level;
  }

  /** The label set of the stream of `row`, in Loki's form. */
  of(row: LogRow): string {
    const resourcePairs = this.resourcePairs(row.resource);
    if (!this.perRecord) return labelsText(resourcePairs);
    const pairs = [...resourcePairs];
    addPairs(pairs, this.recordLabels, row.attributes);
    if (this.level && !pairs.some(([name]) => name === 'level')) pairs.push(['level', levelOf(row)]);
    return labelsText(pairs.sort(byName));
  }

  /** The structured metadata of a resource and scope: name, value, name, value… */
  sharedMetadata(resource: Resource, scope: Scope): string[] {
    const out: string[] = [];
    for (const key in resource.attributes) {
      if (this.resourceSkip.has(key)) continue;
      const text = valueText(resource.attributes[key]);
      if (text !== undefined) out.push(labelName(key), text);
    }
    if (scope.name !== '') out.push('scope_name', scope.name);
    if (scope.version !== '') out.push('scope_version', scope.version);
    return out;
  }

  private resourcePairs(resource: Resource): Pair[] {
    let pairs = this.byResource.get(resource);
    if (pairs !== undefined) return pairs;
    pairs = [];
    addPairs(pairs, this.resourceLabels, resource.attributes);
    pairs.sort(byName);
    this.byResource.set(resource, pairs);
    return pairs;
  }
}
