// What the primary and its workers say to each other over the cluster's IPC channel.

/**
 * Primary → worker. `config`: the text of each config file, as the primary read it; `reload`:
 * the texts the primary read again on SIGHUP and found valid, to restart the pipelines with.
 */
export type ToWorker =
  | { type: 'config'; texts: Record<string, string> }
  | { type: 'reload'; texts: Record<string, string> }
  | { type: 'shutdown' }
  | { type: 'metrics'; id: number };

/** Worker → primary. */
export type FromWorker = { type: 'config?' } | { type: 'ready' } | { type: 'metrics'; id: number; text: string };

const TO_WORKER = new Set<unknown>(['config', 'reload', 'shutdown', 'metrics']);
const FROM_WORKER = new Set<unknown>(['config?', 'ready', 'metrics']);

const typed = (message: unknown, types: Set<unknown>): boolean => typeof message === 'object' && message !== null && types.has((message as { type?: unknown }).type);

export const isFromWorker = (message: unknown): message is FromWorker => typed(message, FROM_WORKER);

export const isToWorker = (message: unknown): message is ToWorker => typed(message, TO_WORKER);
