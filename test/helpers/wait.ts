// Waiting for what a test expects to happen, instead of sleeping a while and assuming it did: a
// loaded machine may take many times longer than an idle one, so the deadline is generous, and a
// test that waits long has found a bug, not a slow machine.

/** How long a test waits for something that takes milliseconds on an idle machine. */
export const DEADLINE_MS = 20_000;

/** Polls `condition` until it holds; resolves true then, or false once `timeoutMs` have passed. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs = DEADLINE_MS): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Resolves true once `promise` settles, or false if it has not after `timeoutMs`. */
export async function settles(promise: Promise<unknown>, timeoutMs = DEADLINE_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const settled = promise.then(
    () => true as const,
    () => true as const,
  );
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}
