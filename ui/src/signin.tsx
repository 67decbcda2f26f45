// The sign-in page: an API key, checked with one read before it is kept for the tab.
//
// data-testid: signin (the page), signin-key (the field), signin-submit, signin-message (why the
// last key was refused, or what went wrong).
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, checkKey } from './api';

/**
 * What a refused key is told. The read API answers the same 401 to a key it does not know, a
 * revoked one and one that may only send, so that an answer tells a stranger nothing about a key:
 * the viewer cannot tell them apart either, and says what every case needs.
 */
export const REFUSED =
  'This key cannot read: sign in with a key that has the read scope (otelgate keys create --project NAME --scope read). ' +
  'otelgate refuses a key it does not know, a revoked key and a key that may only send data (the ingest scope) alike, so this may be any of them.';

function messageOf(error: unknown): string {
  if (!(error instanceof ApiError)) return `The key could not be checked: ${String(error)}`;
  if (error.status === 401) return REFUSED;
  if (error.status === 0) return error.message;
  return `otelgate answered ${error.status}: ${error.message}`;
}

export function SignIn(props: { notice: string | undefined; onSignedIn: (key: string) => void }) {
  const field = useRef<HTMLInputElement>(null);
  const [message, setMessage] = useState(props.notice);
  const [checking, setChecking] = useState(false);
  useEffect(() => field.current?.focus(), []);

  const submit = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const key = field.current?.value.trim() ?? '';
    if (key === '') {
      setMessage('Enter an API key.');
      field.current?.focus();
      return;
    }
    setChecking(true);
    setMessage(undefined);
    try {
      await checkKey(key);
      props.onSignedIn(key);
    } catch (error) {
      setMessage(messageOf(error));
      setChecking(false);
      field.current?.focus();
      field.current?.select();
    }
  };

  return (
    <main class="signin" data-testid="signin">
      <h1>otelgate</h1>
      <p>Sign in with an API key to browse the logs, traces, metrics and errors of its project.</p>
      <form onSubmit={(event) => void submit(event)}>
        <label for="signin-key">API key</label>
        <input ref={field} id="signin-key" name="key" type="password" autocomplete="off" spellcheck={false} data-testid="signin-key" aria-describedby="signin-message" />
        <button type="submit" disabled={checking} data-testid="signin-submit">
          {checking ? 'Signing in…' : 'Sign in'}
        </button>
        <p id="signin-message" class="message" role="alert" data-testid="signin-message">
          {message}
        </p>
      </form>
      <p class="hint">
        The key is kept in this tab only, until you sign out or close it. Make one with <code>otelgate keys create --project NAME --scope read</code>.
      </p>
    </main>
  );
}
