// Takes that wait for something to take: both queues park them the same way, and wake them all
// on an append, a nack or close.

/** Resolves once `wakeAll` runs or `signal` aborts, whichever comes first. */
export function waitForWake(waiting: Set<() => void>, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    const wake = (): void => {
      signal?.removeEventListener('abort', wake);
      waiting.delete(wake);
      resolve();
    };
    // An abort that came while this take was busy has already fired.
    if (signal?.aborted === true) return resolve();
    signal?.addEventListener('abort', wake, { once: true });
    waiting.add(wake);
  });
}
