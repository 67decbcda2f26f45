// One read of the read API for what a view shows, named by a key (the query it asks, as text): a new
// key starts a new read and cancels the one before. What it answers belongs to its key only, so a
// view whose key has just changed is "loading" in that very render, not one render later with the
// previous answer shown as if it were the new one's (the tests and the bench wait on data-state).
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api';

export type Read<T> =
  | { state: 'idle' }
  /** `previous`: the answer to the key before, to keep on screen while the new one comes. */
  | { state: 'loading'; previous?: T }
  | { state: 'ready'; data: T }
  | { state: 'error'; message: string };

type Settled<T> = { key: string; state: 'ready'; data: T } | { key: string; state: 'error'; message: string };

/** A failed read as the views say it: what refused it, and the read API's own message. */
export function messageOf(error: unknown): string {
  if (!(error instanceof ApiError)) return String(error);
  if (error.status === 0) return error.message;
  if (error.status === 400) return `The read API refused a filter: ${error.message}`;
  return `otelgate answered ${error.status}: ${error.message}`;
}

/** `key` undefined: nothing to read (the state is idle). */
export function useRead<T>(key: string | undefined, read: (signal: AbortSignal) => Promise<T>): Read<T> {
  const [settled, setSettled] = useState<Settled<T>>();
  useEffect(() => {
    if (key === undefined) return undefined;
    const controller = new AbortController();
    read(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setSettled({ key, state: 'ready', data });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setSettled({ key, state: 'error', message: messageOf(error) });
      },
    );
    return () => controller.abort();
  }, [key]);
  if (key === undefined) return { state: 'idle' };
  if (settled?.key !== key) return settled?.state === 'ready' ? { state: 'loading', previous: settled.data } : { state: 'loading' };
  return settled;
}
