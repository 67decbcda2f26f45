// The keys in force, indexed by public id; a presented key is checked against its entry's hash in constant time.
import { hashesEqual, hashKey, keyId } from './key.js';
import { scopesOf, type KeyEntry } from './keysfile.js';
import type { Principal, Scope } from './authenticator.js';

export class KeyStore {
  private byId = new Map<string, KeyEntry>();

  replace(entries: readonly KeyEntry[]): void {
    this.byId = new Map(entries.map((entry) => [entry.id, entry]));
  }

  get size(): number {
    return this.byId.size;
  }

  resolve(key: string, scope: Scope): Principal | undefined {
    const id = keyId(key);
    if (id === undefined) return undefined;
    const entry = this.byId.get(id);
    if (entry === undefined || entry.revoked !== undefined || !scopesOf(entry).includes(scope)) return undefined;
    return hashesEqual(hashKey(key), entry.sha256) ? { project: entry.project, keyId: id } : undefined;
  }
}
