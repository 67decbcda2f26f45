// What the primary and its workers say to each other over the cluster's IPC channel.

/** Primary → worker. */
export type ToWorker = { type: 'shutdown' } | { type: 'metrics'; id: number };

/** Worker → primary. */
export type FromWorker = { type: 'ready' } | { type: 'metrics'; id: number; text: string };

export function isFromWorker(message: unknown): message is FromWorker {
  return typeof message === 'object' && message !== null && ((message as { type?: unknown }).type === 'ready' || (message as { type?: unknown }).type === 'metrics');
}

export function isToWorker(message: unknown): message is ToWorker {
  return typeof message === 'object' && message !== null && ((message as { type?: unknown }).type === 'shutdown' || (message as { type?: unknown }).type === 'metrics');
}
