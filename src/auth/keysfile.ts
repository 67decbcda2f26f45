// The keys file: readable YAML fit for GitOps, holding only hashes. A person can add an entry by
// hand from a key's SHA-256; otelgate's `keys` commands read and write the same file.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import Type, { type Static } from 'typebox';
import { parseDocument, stringify } from 'yaml';
import { check } from '../config/ajv.js';
import { formatPath } from '../config/path.js';
import { SCOPES, type Scope } from './authenticator.js';

export const KeyEntrySchema = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z0-9]{10}$', description: 'The public part of the key: otg_<id>_<secret>.' }),
    project: Type.String({ minLength: 1, description: 'The project every request with this key writes to and reads from.' }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'Lower-case hex SHA-256 of the whole key.' }),
    scopes: Type.Optional(
      Type.Array(Type.Union([Type.Literal('ingest'), Type.Literal('read')]), {
        minItems: 1,
        uniqueItems: true,
        description: 'What the key may do: ingest (send data), read (the read API), or both. Absent: both, as every key had before scopes.',
      }),
    ),
    created: Type.Optional(Type.String()),
    revoked: Type.Optional(Type.String({ description: 'When set, the key is refused.' })),
  },
  { additionalProperties: false },
);

export type KeyEntry = Static<typeof KeyEntrySchema>;

/** The scopes an entry grants: its own, or both for an entry written before scopes existed. */
export const scopesOf = (entry: KeyEntry): readonly Scope[] => entry.scopes ?? SCOPES;

const KeysFileSchema = Type.Object({ keys: Type.Array(KeyEntrySchema, { default: [] }) }, { additionalProperties: false });

const HEADER = `# otelgate API keys. Only the SHA-256 hash of each key is kept here: a key itself is shown once,
# when \`otelgate keys create\` makes it. To add a key by hand, put its public id (the part between
# "otg_" and the next "_"), its project and the output of: printf '%s' "$KEY" | sha256sum
# otelgate reloads this file within seconds of a change; set "revoked" to refuse a key.
# "scopes" says what a key may do: [ingest] sends data, [read] reads it back, [ingest, read] both;
# an entry without scopes (from before they existed) may do both.
`;

export class KeysFileError extends Error {
  override readonly name = 'KeysFileError';
}

/** Reads and checks the whole file; every problem names the file and the entry. */
export function readKeysFile(file: string): KeyEntry[] {
  const doc = parseDocument(readFileSync(file, 'utf8'), { uniqueKeys: true });
  if (doc.errors.length > 0) throw new KeysFileError(`${file}: YAML syntax: ${doc.errors[0]?.message.split('\n')[0]}`);
  const data = (doc.toJS() as unknown) ?? { keys: [] };
  const problems = check(KeysFileSchema, data);
  if (problems.length > 0) throw new KeysFileError(problems.map((p) => `${file}: ${formatPath(p.path)}: ${p.message}`).join('\n'));
  const entries = (data as Static<typeof KeysFileSchema>).keys;
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.id)) throw new KeysFileError(`${file}: key id ${entry.id} is listed more than once`);
    seen.add(entry.id);
  }
  return entries;
}

/** Replaces the file atomically, so a reader never sees half of it. */
export function writeKeysFile(file: string, entries: readonly KeyEntry[]): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, HEADER + stringify({ keys: entries }), { mode: 0o600 });
  renameSync(temporary, file);
}
