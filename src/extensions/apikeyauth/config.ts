// Settings of the apikeyauth extension.
import Type, { type Static } from 'typebox';

export const apiKeyAuthSchema = Type.Object(
  {
    keys_file: Type.String({ minLength: 1, default: './data/keys.yaml', description: 'The keys file (hashes only); a relative path is relative to the working directory.' }),
    reload_interval: Type.String({ format: 'duration', default: '1s', description: 'How often the keys file is checked for changes.' }),
    first_key_project: Type.Optional(
      Type.String({ minLength: 1, description: 'When the keys file does not exist at start, create it with one key for this project and print the key once.' }),
    ),
  },
  { additionalProperties: false },
);

export type ApiKeyAuthConfig = Static<typeof apiKeyAuthSchema>;
