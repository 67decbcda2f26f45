// `otelgate keys create|list|revoke`: manage the keys file of the config's apikeyauth extension.
// Secrets are printed once, by create, and never stored.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { generateKey, hashesEqual, hashKey, keyId } from '../auth/key.js';
import { SCOPES, type Scope } from '../auth/authenticator.js';
import { readKeysFile, scopesOf, writeKeysFile, type KeyEntry } from '../auth/keysfile.js';
import type { ApiKeyAuthConfig } from '../extensions/apikeyauth/config.js';
import { chooseComponent, readConfig, type ConfigArgs } from './config.js';

export interface KeysOptions {
  config: ConfigArgs;
  project?: string | undefined;
  /** keys create's --scope: ingest, read or ingest,read. */
  scope?: string | undefined;
  extension?: string | undefined;
}

class UsageError extends Error {}

/** A key id as keys list shows it. */
const ID = /^[a-z0-9]{10}$/;

function keysFileOf(options: KeysOptions): string {
  const choice = chooseComponent(readConfig(options.config), 'extension', 'apikeyauth', options.extension);
  if ('chosen' in choice) return resolve((choice.chosen.config as ApiKeyAuthConfig).keys_file);
  throw new UsageError(
    options.extension === undefined
      ? `the config must define exactly one apikeyauth extension to manage keys (found: ${choice.ids}); choose one with --extension ID`
      : `no apikeyauth extension "${options.extension}" in the config (found: ${choice.ids})`,
  );
}

function entries(file: string): KeyEntry[] {
  return existsSync(file) ? readKeysFile(file) : [];
}

/** --scope's value: `ingest` when not given, the safe choice for a key that leaves the building. */
function parseScopes(value: string | undefined): Scope[] {
  if (value === undefined) return ['ingest'];
  const named = value.split(',').map((s) => s.trim());
  const unknown = named.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0 || named.length === 0) throw new UsageError(`--scope takes ingest, read or ingest,read (got "${value}")`);
  return SCOPES.filter((scope) => named.includes(scope));
}

function create(file: string, project: string | undefined, scope: string | undefined): number {
  if (project === undefined || project.trim() === '') throw new UsageError('keys create needs --project NAME');
  const scopes = parseScopes(scope);
  const list = entries(file);
  const key = generateKey();
  writeKeysFile(file, [...list, { id: key.id, project, sha256: key.sha256, scopes, created: new Date().toISOString() }]);
  process.stdout.write(
    `Created key ${key.id} for project "${project}" (scopes: ${scopes.join(', ')}); only its SHA-256 hash is kept, in ${file}.\nThe key is shown only this once:\n${key.key}\n`,
  );
  return 0;
}

function list(file: string): number {
  const rows = entries(file).map((e) => [e.id, e.project, scopesOf(e).join(','), e.created ?? '', e.revoked ?? '']);
  const table = [['ID', 'PROJECT', 'SCOPES', 'CREATED', 'REVOKED'], ...rows];
  const widths = table[0]?.map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length))) ?? [];
  for (const row of table) process.stdout.write(`${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()}\n`);
  return 0;
}

/**
 * The entry `argument` names: its id, as keys list shows it, or the whole key, matched by its hash.
 * Only an id is ever echoed: whatever else was given may hold a secret.
 */
function findKey(file: string, list: readonly KeyEntry[], argument: string): KeyEntry {
  if (keyId(argument) !== undefined) {
    const sha256 = hashKey(argument);
    const entry = list.find((e) => hashesEqual(e.sha256, sha256));
    if (entry === undefined) throw new UsageError(`no key in ${file} is the key given (id ${keyId(argument)}); nothing was revoked`);
    return entry;
  }
  const entry = list.find((e) => e.id === argument);
  if (entry !== undefined) return entry;
  throw new UsageError(
    ID.test(argument)
      ? `no key with id ${argument} in ${file}`
      : `no key in ${file} matches what was given: keys revoke takes a key id, as keys list shows it, or the whole key (otg_<id>_<secret>)`,
  );
}

function revoke(file: string, argument: string | undefined): number {
  if (argument === undefined) throw new UsageError('keys revoke needs the key id, as keys list shows it, or the whole key');
  const current = entries(file);
  const entry = findKey(file, current, argument);
  const { id } = entry;
  if (entry.revoked !== undefined) {
    process.stdout.write(`Key ${id} was already revoked on ${entry.revoked}.\n`);
    return 0;
  }
  writeKeysFile(file, current.map((e) => (e.id === id ? { ...e, revoked: new Date().toISOString() } : e)));
  process.stdout.write(`Revoked key ${id} (project "${entry.project}"); a running otelgate refuses it within seconds.\n`);
  return 0;
}

export function keysCommand(action: string | undefined, argument: string | undefined, options: KeysOptions): number {
  try {
    const file = keysFileOf(options);
    switch (action) {
      case 'create':
        return create(file, options.project, options.scope);
      case 'list':
        return list(file);
      case 'revoke':
        return revoke(file, argument);
      default:
        throw new UsageError(`keys needs one of: create --project NAME [--scope ingest|read|ingest,read], list, revoke ID|KEY (got ${action === undefined ? 'nothing' : `"${action}"`})`);
    }
  } catch (error) {
    if (error instanceof UsageError || (error instanceof Error && error.name === 'KeysFileError')) {
      process.stderr.write(`otelgate keys: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
