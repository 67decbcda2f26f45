// A request delivered as the exporter helper delivers it: prepared (compressed) once, then sent
// and retried under retry_on_failure until it comes to a result.
import type { HttpRequest, HttpSender } from './http-sender.js';
import { retry, type RetryOptions, type RetryResult } from './retry.js';
import type { RetryPolicy } from './retry-settings.js';

/**
 * `options.signal` (shutdown) ends a wait between attempts and also cuts the attempt under way:
 * that request may have reached the backend, so a queue that sends it again after a restart may
 * deliver it twice (at least once).
 */
export async function deliver(sender: HttpSender, request: HttpRequest, policy: RetryPolicy, options: RetryOptions = {}): Promise<RetryResult> {
  const prepared = await sender.prepare(request);
  return retry(() => sender.send(prepared, options.signal), policy, options);
}
