// What the redaction processor does to one map of attributes and to one log body, as the
// Collector's (processor/redactionprocessor): a key that is not allowed goes, a value a blocked
// pattern matches is masked where it matches (or wholly, for a blocked key), a value an allowed
// pattern matches is left alone, and the map says what happened in `redaction.*` attributes when
// `summary` asks for it. Nothing is changed in place: a map or body that changes is a new one.
import { createHmac, hash } from 'node:crypto';
import { isAttributes, withAttributes, type AnyValue, type Attributes, type MutableAttributes } from '../../model/anyvalue.js';
import { replaceAllMatches } from '../../ottl/regex.js';
import { anyValueText } from '../../ottl/values.js';
import { type CompiledPatterns, type HashFunction, type RedactionConfig } from './config.js';

/** The attributes a summary writes: of a map about itself, or of a log record about its body. */
interface SummaryNames {
  redactedKeys: string;
  redactedCount: string;
  maskedKeys: string;
  maskedCount: string;
  allowedKeys: string;
  allowedCount: string;
  ignoredCount: string;
}

const names = (prefix: string): SummaryNames => ({
  redactedKeys: `${prefix}.redacted.keys`,
  redactedCount: `${prefix}.redacted.count`,
  maskedKeys: `${prefix}.masked.keys`,
  maskedCount: `${prefix}.masked.count`,
  allowedKeys: `${prefix}.allowed.keys`,
  allowedCount: `${prefix}.allowed.count`,
  ignoredCount: `${prefix}.ignored.count`,
});

const ATTRIBUTES_SUMMARY = names('redaction');
const BODY_SUMMARY = names('redaction.body');

/** A line, as Go's `.*` matches it. */
const LINE = /[^\n]*/g;

/** The processor's own summary attributes, always allowed (as the Collector's allow list has them), so a second pass adds to them. */
const SUMMARY_KEYS = [ATTRIBUTES_SUMMARY.redactedKeys, ATTRIBUTES_SUMMARY.redactedCount, ATTRIBUTES_SUMMARY.maskedKeys, ATTRIBUTES_SUMMARY.maskedCount, ATTRIBUTES_SUMMARY.ignoredCount];

/** What one pass over a map or a body found: keys (body: paths) removed, masked, left alone for their value, and how many were ignored. */
export class Findings {
  redacted: string[] = [];
  masked: string[] = [];
  allowed: string[] = [];
  ignored = 0;

  get any(): boolean {
    return this.redacted.length > 0 || this.masked.length > 0 || this.allowed.length > 0 || this.ignored > 0;
  }
}

/** The text a hash function makes of a masked text, hex as the Collector writes it. */
function hasher(fn: HashFunction | '', key: string): ((text: string) => string) | undefined {
  switch (fn) {
    case '':
      return undefined;
    case 'hmac-sha256':
    case 'hmac-sha512': {
      const algorithm = fn === 'hmac-sha256' ? 'sha256' : 'sha512';
      return (text) => createHmac(algorithm, key).update(text, 'utf8').digest('hex');
    }
    default: {
      const algorithm = fn === 'sha3' ? 'sha3-256' : fn;
      return (text) => hash(algorithm, text, 'hex');
    }
  }
}

/**
 * One test for "does any blocked value match", when the patterns can be joined into one (the same
 * flags, no group name twice): most values match none, and one test of three alternatives costs
 * about a third of three tests.
 */
function anyOf(patterns: readonly RegExp[]): RegExp | undefined {
  if (patterns.length < 2) return undefined;
  const flags = (patterns[0] as RegExp).flags.replace('g', '');
  if (patterns.some((p) => p.flags.replace('g', '') !== flags)) return undefined;
  try {
    return new RegExp(patterns.map((p) => `(?:${p.source})`).join('|'), flags);
  } catch {
    return undefined;
  }
}

export class Redactor {
  private readonly allowedKeys: ReadonlySet<string> | undefined;
  private readonly ignoredKeys: ReadonlySet<string>;
  private readonly anyBlocked: RegExp | undefined;
  private readonly hash: ((text: string) => string) | undefined;
  private readonly maskText: string;
  private readonly allTypes: boolean;
  private readonly summary: 'debug' | 'info' | 'silent';

  constructor(
    config: RedactionConfig,
    private readonly patterns: CompiledPatterns,
    hashFunction: HashFunction | '',
  ) {
    this.allowedKeys = config.allow_all_keys ? undefined : new Set([...config.allowed_keys, ...SUMMARY_KEYS]);
    this.ignoredKeys = new Set(config.ignored_keys);
    this.anyBlocked = anyOf(patterns.blockedValues);
    this.hash = hasher(hashFunction, config.hmac_key ?? '');
    this.maskText = config.masking_string ?? '****';
    this.allTypes = config.redact_all_types;
    this.summary = config.summary === 'debug' || config.summary === 'info' ? config.summary : 'silent';
  }

  /** `map` redacted, with its summary: the same map when nothing is to change. */
  attributes(map: Attributes): Attributes {
    const found = new Findings();
    let out: MutableAttributes | undefined;
    const keys = Object.keys(map);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      if (this.ignores(key)) {
        found.ignored++;
        continue;
      }
      if (this.removes(key)) {
        found.redacted.push(key);
        out ??= withAttributes(map);
        delete out[key];
        continue;
      }
      const value = map[key] as AnyValue;
      const text = typeof value === 'string' ? value : this.allTypes ? anyValueText(value) : undefined;
      if (text !== undefined && this.allowsValue(text)) {
        found.allowed.push(key);
        continue;
      }
      let masked: string | undefined;
      if (this.masksKey(key)) masked = this.maskWhole(text ?? anyValueText(value));
      else if (text !== undefined) {
        const blocked = this.blockValues(text);
        if (blocked !== text) masked = blocked;
      }
      if (masked === undefined) continue;
      found.masked.push(key);
      out ??= withAttributes(map);
      out[key] = masked;
    }
    return this.summarised(map, out, found, ATTRIBUTES_SUMMARY);
  }

  /** A log body redacted (the same value when nothing is to change); what was found goes into `found`, by path (`a.b`, `list.[0]`, `body`). */
  body(body: AnyValue, found: Findings): AnyValue {
    if (body !== null && isAttributes(body)) return this.bodyMap(body, '', found);
    if (Array.isArray(body)) return this.bodyList(body as readonly AnyValue[], '', found);
    return this.bodyValue(body, 'body', found);
  }

  /** `attributes` with the summary of a body's `found` added, as the Collector puts it on the record. */
  bodySummary(attributes: Attributes, found: Findings): Attributes {
    return this.summarised(attributes, undefined, found, BODY_SUMMARY);
  }

  private bodyMap(map: Attributes, path: string, found: Findings): Attributes {
    let out: MutableAttributes | undefined;
    const keys = Object.keys(map);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const at = path === '' ? key : `${path}.${key}`;
      const value = map[key] as AnyValue;
      let changed: AnyValue;
      if (this.ignores(key)) {
        found.ignored++;
        continue;
      } else if (this.removes(key)) {
        found.redacted.push(at);
        out ??= withAttributes(map);
        delete out[key];
        continue;
      } else if (this.masksKey(key)) {
        found.masked.push(at);
        changed = this.maskWhole(anyValueText(value));
      } else {
        changed = this.bodyValue(value, at, found);
        if (changed === value) continue;
      }
      out ??= withAttributes(map);
      out[key] = changed;
    }
    return out ?? map;
  }

  private bodyList(list: readonly AnyValue[], path: string, found: Findings): readonly AnyValue[] {
    let out: AnyValue[] | undefined;
    for (let i = 0; i < list.length; i++) {
      const value = list[i] as AnyValue;
      const changed = this.bodyValue(value, path === '' ? `[${i}]` : `${path}.[${i}]`, found);
      if (changed === value) continue;
      out ??= list.slice();
      out[i] = changed;
    }
    return out ?? list;
  }

  /** A value inside a body (or a body that is not a map or list): masked by its text, whatever its type, as the Collector. */
  private bodyValue(value: AnyValue, at: string, found: Findings): AnyValue {
    if (value !== null && isAttributes(value)) return this.bodyMap(value, at, found);
    if (Array.isArray(value)) return this.bodyList(value as readonly AnyValue[], at, found);
    const text = anyValueText(value);
    if (this.allowsValue(text)) {
      found.allowed.push(at);
      return value;
    }
    const blocked = this.blockValues(text);
    if (blocked === text) return value;
    found.masked.push(at);
    return blocked;
  }

  /**
   * `map` (or `changed`, its redacted copy) with the summary attributes of `found` added to any it
   * has, as the Collector adds them: keys merged, sorted and joined with commas (debug), counts
   * summed (debug and info), ignored keys only counted.
   */
  private summarised(map: Attributes, changed: MutableAttributes | undefined, found: Findings, to: SummaryNames): Attributes {
    if (this.summary === 'silent' || !found.any) return changed ?? map;
    const out = changed ?? withAttributes(map);
    this.note(out, found.redacted, to.redactedKeys, to.redactedCount);
    this.note(out, found.masked, to.maskedKeys, to.maskedCount);
    this.note(out, found.allowed, to.allowedKeys, to.allowedCount);
    if (found.ignored > 0) out[to.ignoredCount] = BigInt(found.ignored) + existingCount(out[to.ignoredCount]);
    return out;
  }

  private note(out: MutableAttributes, keys: string[], keysName: string, countName: string): void {
    if (keys.length === 0) return;
    if (this.summary === 'debug') {
      const existing = out[keysName];
      const all = typeof existing === 'string' && existing !== '' ? [...keys, ...existing.split(',')] : keys.slice();
      out[keysName] = all.sort().join(',');
    }
    out[countName] = BigInt(keys.length) + existingCount(out[countName]);
  }

  private ignores(key: string): boolean {
    return this.ignoredKeys.has(key) || this.patterns.ignoredKeys.some((p) => p.test(key));
  }

  private removes(key: string): boolean {
    return this.allowedKeys !== undefined && !this.allowedKeys.has(key);
  }

  private masksKey(key: string): boolean {
    return this.patterns.blockedKeys.some((p) => p.test(key));
  }

  private allowsValue(text: string): boolean {
    return this.patterns.allowedValues.some((p) => p.test(text));
  }

  private mask(text: string): string {
    return this.hash === undefined ? this.maskText : this.hash(text);
  }

  /** A blocked key's whole value masked as the Collector masks it, with `.*`: line by line, since Go's `.` stops at a newline. */
  private maskWhole(text: string): string {
    return replaceAllMatches(text, LINE, (line) => this.mask(line[0]));
  }

  /** `text` with every part a blocked pattern matches masked, pattern after pattern; `text` itself when none matches. */
  private blockValues(text: string): string {
    const blocked = this.patterns.blockedValues;
    if (blocked.length === 0 || (this.anyBlocked !== undefined && !this.anyBlocked.test(text))) return text;
    let out = text;
    for (let i = 0; i < blocked.length; i++) out = replaceAllMatches(out, blocked[i] as RegExp, (match) => this.mask(match[0]));
    return out;
  }
}

/** A count the map has already (from an earlier redaction): an int's value, 0 for anything else, as pdata's Int(). */
function existingCount(value: AnyValue | undefined): bigint {
  return typeof value === 'bigint' ? value : 0n;
}
