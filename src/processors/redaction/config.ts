// Settings of the redaction processor, the Collector's: which attribute keys stay, which values are
// masked, how, and what the processor says about it on the rows it changed.
import Type, { type Static } from 'typebox';
import type { SettingsProblem } from '../../runtime/component.js';
import { safeRegex, UnsafeRegexError } from '../../ottl/regex.js';

/** The Collector's names, in any case; the hmac ones need `hmac_key`. */
const HASH_FUNCTIONS = ['md5', 'sha1', 'sha3', 'hmac-sha256', 'hmac-sha512'] as const;
export type HashFunction = (typeof HASH_FUNCTIONS)[number];

/** The shortest key each hmac takes, in bytes, as the Collector requires. */
const HMAC_KEY_BYTES: Readonly<Record<string, number>> = { 'hmac-sha256': 32, 'hmac-sha512': 64 };

const SUMMARIES = ['debug', 'info', 'silent'] as const;

const strings = (description: string) => Type.Array(Type.String(), { default: [], description });
const patterns = (description: string) => Type.Array(Type.String({ minLength: 1 }), { default: [], description });

export const redactionSchema = Type.Object(
  {
    allow_all_keys: Type.Boolean({ default: false, description: 'Keep every attribute key; allowed_keys is not used then. Values are still masked.' }),
    allowed_keys: strings('The attribute keys kept; every other key is removed. Empty (the default) removes every attribute unless allow_all_keys is set.'),
    ignored_keys: strings('Keys left exactly as they are: neither removed nor masked.'),
    ignored_key_patterns: patterns('Regular expressions: keys any of them matches are left as they are.'),
    blocked_key_patterns: patterns('Regular expressions: the whole value of a key any of them matches is masked.'),
    blocked_values: patterns('Regular expressions: every part of a value they match is masked.'),
    allowed_values: patterns('Regular expressions: a value any of them matches is never masked by blocked_values or blocked_key_patterns.'),
    redact_all_types: Type.Boolean({ default: false, description: 'Also mask values that are not strings (numbers, booleans, maps, lists), by their text; a masked one becomes a string.' }),
    hash_function: Type.Optional(Type.String({ description: 'Replace what is masked by its hash (md5, sha1, sha3 = SHA3-256, hmac-sha256, hmac-sha512) instead of ****.' })),
    masking_string: Type.Optional(Type.String({ minLength: 1, description: 'What a masked part becomes instead of **** (not with hash_function).' })),
    hmac_key: Type.Optional(Type.String({ description: 'The secret of hmac-sha256 (at least 32 bytes) or hmac-sha512 (at least 64); write it as ${env:NAME}.' })),
    summary: Type.Optional(Type.String({ description: 'Attributes the processor adds where it changed something: debug (counts and keys), info (counts), silent (none, the default).' })),
    url_sanitizer: Type.Optional(Type.Unknown()),
    db_sanitizer: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);

export type RedactionConfig = Static<typeof redactionSchema>;

/** The regular expressions of the settings, compiled; each problem names the list and index. */
export interface CompiledPatterns {
  ignoredKeys: RegExp[];
  blockedKeys: RegExp[];
  blockedValues: RegExp[];
  allowedValues: RegExp[];
}

const PATTERN_LISTS = [
  ['ignored_key_patterns', 'ignoredKeys'],
  ['blocked_key_patterns', 'blockedKeys'],
  ['blocked_values', 'blockedValues'],
  ['allowed_values', 'allowedValues'],
] as const;

export function compilePatterns(config: RedactionConfig): CompiledPatterns | { problems: SettingsProblem[] } {
  const problems: SettingsProblem[] = [];
  const out: CompiledPatterns = { ignoredKeys: [], blockedKeys: [], blockedValues: [], allowedValues: [] };
  for (const [setting, field] of PATTERN_LISTS) {
    config[setting].forEach((pattern, i) => {
      try {
        // g: blocked_values replaces every match; the others only test, which g does not change but lastIndex would.
        out[field].push(safeRegex(pattern, field === 'blockedValues' ? 'g' : ''));
      } catch (error) {
        if (!(error instanceof UnsafeRegexError)) throw error;
        problems.push({ path: [setting, i], message: error.message });
      }
    });
  }
  return problems.length > 0 ? { problems } : out;
}

/** hash_function as the Collector reads it (any case; '' for none), or the problem of one it does not know. */
export function hashFunctionOf(config: RedactionConfig): HashFunction | '' | { problems: SettingsProblem[] } {
  const name = (config.hash_function ?? '').toLowerCase();
  if (name === '' || (HASH_FUNCTIONS as readonly string[]).includes(name)) return name as HashFunction | '';
  return { problems: [{ path: ['hash_function'], message: `unknown hash function ${JSON.stringify(config.hash_function)}; use one of ${HASH_FUNCTIONS.join(', ')}, or leave it out to mask with ****` }] };
}

export function validateRedaction(config: RedactionConfig): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  const compiled = compilePatterns(config);
  if ('problems' in compiled) problems.push(...compiled.problems);
  const hash = hashFunctionOf(config);
  if (typeof hash === 'object') {
    problems.push(...hash.problems);
  } else if (hash in HMAC_KEY_BYTES) {
    const needed = HMAC_KEY_BYTES[hash] as number;
    const length = Buffer.byteLength(config.hmac_key ?? '', 'utf8');
    if (length < needed) problems.push({ path: ['hmac_key'], message: `${hash} needs a key of at least ${needed} bytes (this one has ${length}); set hmac_key, from the environment: hmac_key: \${env:REDACTION_HMAC_KEY}` });
  }
  if (config.masking_string !== undefined && config.hash_function !== undefined && config.hash_function !== '') {
    problems.push({ path: ['masking_string'], message: 'masking_string and hash_function cannot both be set: what is masked is either replaced by the masking string or by its hash; remove one' });
  }
  if (config.summary !== undefined && config.summary !== '' && !(SUMMARIES as readonly string[]).includes(config.summary)) {
    problems.push({ path: ['summary'], message: `${JSON.stringify(config.summary)} is not a summary level; use debug, info or silent` });
  }
  for (const sanitizer of ['url_sanitizer', 'db_sanitizer'] as const) {
    if (switchedOn(config[sanitizer])) {
      problems.push({ path: [sanitizer], message: `the Collector's ${sanitizer} is not in otelgate yet; remove it (or set enabled: false), and mask what it would have with blocked_values` });
    }
  }
  return problems;
}

/** Whether a sanitizer's settings switch anything on: its own `enabled`, or (db_sanitizer) one of its databases'. */
function switchedOn(settings: unknown): boolean {
  if (typeof settings !== 'object' || settings === null) return false;
  return Object.entries(settings).some(([key, value]) => (key === 'enabled' ? value === true : switchedOn(value)));
}
