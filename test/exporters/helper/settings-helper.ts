// Client settings for tests, filled in with their defaults by the real schema (as the config loader does).
import Type from 'typebox';
import { check } from '../../../src/config/ajv.js';
import { httpClientProperties, type HttpClientConfig } from '../../../src/exporters/helper/http-settings.js';
import { retryOnFailureSchema, retryPolicy, type RetryPolicy } from '../../../src/exporters/helper/retry-settings.js';

const schema = Type.Object(httpClientProperties({ timeout: '30s', compression: 'gzip' }), { additionalProperties: false });
const retrySchema = Type.Object({ retry_on_failure: retryOnFailureSchema });

export function clientSettings(settings: Record<string, unknown>): HttpClientConfig {
  const data = structuredClone(settings);
  const problems = check(schema, data);
  if (problems.length > 0) throw new Error(`test settings do not validate: ${JSON.stringify(problems)}`);
  return data as unknown as HttpClientConfig;
}

/** retry_on_failure as the loop takes it, from the block's settings. */
export function policy(settings: Record<string, unknown>): RetryPolicy {
  const data = { retry_on_failure: structuredClone(settings) };
  const problems = check(retrySchema, data);
  if (problems.length > 0) throw new Error(`test settings do not validate: ${JSON.stringify(problems)}`);
  return retryPolicy(data.retry_on_failure as never);
}
