// The viewer's entry: the router over the paths under /ui/, the shell around every view (the nav of
// the four views, and Sign out), and the sign-in page for a tab that holds no key.
//
// data-testid: nav (the views' links), nav-logs, nav-traces, nav-metrics, nav-errors, signout,
// view-not-found (a path under /ui/ that is no view).
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Api, clearSession, storedKey, storeKey } from './api';
import { Link } from './components/link';
import { REFUSED, SignIn } from './signin';
import { BASE, navigate, routeOf, useLocation, type Route } from './url';
import { ErrorsView } from './views/errors';
import { LogsView } from './views/logs';
import { MetricsView } from './views/metrics';
import { TracesView } from './views/traces';
import './style.css';

/** The views, in the nav's order, with their titles. */
const VIEWS = { logs: 'Logs', traces: 'Traces', metrics: 'Metrics', errors: 'Errors' } as const;

const SIGNIN = `${BASE}signin`;
const FIRST_VIEW = `${BASE}logs`;

/** Where sign-in leads: the view that was asked for, only ever a path of the viewer. */
function nextOf(query: URLSearchParams): string {
  const next = query.get('next');
  return next !== null && next.startsWith(BASE) ? next : FIRST_VIEW;
}

/** The sign-in page, to come back to `here` after (a view asked for, or the one a refused key was on). */
function signInFor(here: string | undefined): string {
  return here === undefined ? SIGNIN : `${SIGNIN}?${new URLSearchParams({ next: here }).toString()}`;
}

/** A redirect made once rendered: navigating while rendering would re-render in the middle of it. */
function Redirect(props: { to: string }) {
  useEffect(() => navigate(props.to, 'replace'), [props.to]);
  return null;
}

function titleOf(view: Route['view']): string {
  if (view === 'home') return 'otelgate';
  return `${view === 'signin' ? 'Sign in' : view === 'unknown' ? 'Not found' : VIEWS[view]} · otelgate`;
}

function App() {
  const { path, query } = useLocation();
  const [notice, setNotice] = useState<string>();
  const signOut = (why?: string): void => {
    clearSession();
    setNotice(why);
    // Several reads refused at once sign out once: the next would take the sign-in page for the view.
    if (routeOf(location.pathname).view === 'signin') return;
    // Refused while reading: back to the same view once signed in again.
    navigate(signInFor(why === undefined ? undefined : location.pathname + location.search));
  };
  const [api] = useState(() => new Api(() => signOut(REFUSED)));
  const route = routeOf(path);
  useEffect(() => {
    document.title = titleOf(route.view);
  }, [route.view]);

  const key = storedKey();
  if (route.view === 'signin') {
    if (key !== undefined) return <Redirect to={nextOf(query)} />;
    const signedIn = (newKey: string): void => {
      storeKey(newKey);
      setNotice(undefined);
      navigate(nextOf(query), 'replace');
    };
    return <SignIn notice={notice} onSignedIn={signedIn} />;
  }
  if (key === undefined) return <Redirect to={signInFor(route.view === 'home' ? undefined : path + location.search)} />;
  if (route.view === 'home') return <Redirect to={FIRST_VIEW + location.search} />;

  return (
    <div class="shell">
      <header class="top">
        <span class="brand">otelgate</span>
        <nav aria-label="Views" data-testid="nav">
          <ul>
            {Object.entries(VIEWS).map(([view, title]) => (
              <li key={view}>
                <Link href={BASE + view} current={route.view === view} testid={`nav-${view}`}>
                  {title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" class="signout" data-testid="signout" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      <main>
        {route.view === 'logs' && <LogsView api={api} />}
        {route.view === 'traces' && <TracesView api={api} />}
        {route.view === 'metrics' && <MetricsView api={api} />}
        {route.view === 'errors' && <ErrorsView api={api} />}
        {route.view === 'unknown' && (
          <section class="view" data-testid="view-not-found">
            <h1>Not found</h1>
            <p>
              The viewer has no page here. <Link href={FIRST_VIEW}>Go to the logs</Link>.
            </p>
          </section>
        )}
      </main>
    </div>
  );
}

render(<App />, document.getElementById('app') as HTMLElement);
