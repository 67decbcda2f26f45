// The apikeyauth extension: resolves `Authorization: Bearer KEY` or `X-Service-Key: KEY` to a
// project through the keys file, which it reloads while running so new and revoked keys take
// effect within seconds, without a restart.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { presentedKey, type Authenticator } from '../../auth/authenticator.js';
import { generateKey } from '../../auth/key.js';
import { readKeysFile, writeKeysFile } from '../../auth/keysfile.js';
import { KeyStore } from '../../auth/keystore.js';
import { durationMs } from '../../config/duration.js';
import type { ExtensionFactory } from '../../runtime/component.js';
import { apiKeyAuthSchema } from './config.js';

function fingerprint(file: string): string | undefined {
  try {
    const stat = statSync(file);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return undefined;
  }
}

export const apiKeyAuthExtensionFactory: ExtensionFactory<typeof apiKeyAuthSchema> = {
  kind: 'extension',
  type: 'apikeyauth',
  description: 'Resolves each request\'s API key to its project, by SHA-256 hash, from a keys file it reloads while running.',
  stability: 'alpha',
  schema: apiKeyAuthSchema,
  create(config, ctx): Authenticator {
    const file = resolve(config.keys_file);
    const store = new KeyStore();
    let seen: string | undefined;
    let timer: NodeJS.Timeout | undefined;

    // The fingerprint is taken before reading, so an edit made while reading is seen on the next check.
    const load = (): void => {
      const before = fingerprint(file);
      store.replace(readKeysFile(file));
      seen = before;
    };
    const reload = (): void => {
      const now = fingerprint(file);
      if (now === seen) return;
      try {
        load();
        ctx.logger.info({ keys_file: file, keys: store.size }, 'Reloaded API keys');
      } catch (error) {
        seen = now;
        ctx.logger.error({ keys_file: file, err: (error as Error).message }, 'Keys file is unreadable; keeping the keys loaded before');
      }
    };

    return {
      async start() {
        if (!existsSync(file)) {
          if (config.first_key_project === undefined) {
            throw new Error(`keys file ${file} does not exist; create a key with "otelgate keys create --project NAME", or set first_key_project`);
          }
          const created = generateKey();
          // Both scopes: the first steps send with this key and read back with it.
          writeKeysFile(file, [{ id: created.id, project: config.first_key_project, sha256: created.sha256, scopes: ['ingest', 'read'], created: new Date().toISOString() }]);
          process.stdout.write(
            `\nCreated the first API key, for project "${config.first_key_project}". It is shown only this once; keep it:\n\n` +
              `    ${created.key}\n\nSend it as "Authorization: Bearer <key>" or "X-Service-Key: <key>". Only its SHA-256 hash is kept, in ${file}.\n\n`,
          );
          ctx.logger.info({ key_id: created.id, project: config.first_key_project, keys_file: file }, 'Created the first API key');
        }
        load();
        ctx.logger.info({ keys_file: file, keys: store.size }, 'Loaded API keys');
        timer = setInterval(reload, durationMs(config.reload_interval));
        timer.unref();
      },
      async shutdown() {
        clearInterval(timer);
      },
      authenticate(headers, scope) {
        const key = presentedKey(headers);
        return key === undefined ? undefined : store.resolve(key, scope);
      },
      authenticateKey: (key, scope) => store.resolve(key, scope),
    };
  },
};
