// The viewer's state that belongs in its address: which view (the path) and its filters (the query
// string), so that a view can be bookmarked, shared and reopened as it was. The key never is.
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/ui/';

export type Route =
  | { view: 'home' }
  | { view: 'signin' }
  | { view: 'logs' }
  | { view: 'traces'; traceId?: string }
  | { view: 'metrics' }
  | { view: 'errors' }
  | { view: 'unknown' };

/** The route of a path under /ui/; a last '/' is ignored, so /ui/logs/ is /ui/logs. */
export function routeOf(path: string): Route {
  if (!path.startsWith(BASE)) return { view: 'unknown' };
  const parts = path.slice(BASE.length).split('/').filter((part) => part !== '');
  const [first, second, ...rest] = parts;
  if (rest.length > 0) return { view: 'unknown' };
  if (first === undefined) return { view: 'home' };
  if (first === 'traces' && second !== undefined) {
    try {
      return { view: 'traces', traceId: decodeURIComponent(second) };
    } catch {
      // A '%' that starts no escape: no trace has such an id.
      return { view: 'unknown' };
    }
  }
  if (second !== undefined) return { view: 'unknown' };
  switch (first) {
    case 'signin':
    case 'logs':
    case 'traces':
    case 'metrics':
    case 'errors':
      return { view: first };
    default:
      return { view: 'unknown' };
  }
}

/** The address of a trace's page: its id as one path segment, whatever it holds; `search` (a query string from its '?', or '') as given. */
export function traceHref(traceId: string, search = ''): string {
  return `${BASE}traces/${encodeURIComponent(traceId)}${search}`;
}

/** pushState and replaceState fire no event of their own: this one tells useLocation() to look again. */
const CHANGED = 'otelgate:location';

/**
 * Goes to `to` (a path with its query) without loading the page. `push` makes a step the back
 * button returns from (another view, a new search); `replace` does not (an edit as one types, a
 * redirect).
 */
export function navigate(to: string, mode: 'push' | 'replace' = 'push'): void {
  if (mode === 'push') history.pushState(null, '', to);
  else history.replaceState(null, '', to);
  dispatchEvent(new Event(CHANGED));
}

/** The path and query now; re-renders the component whenever either changes. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setVersion] = useState(0);
  const rendered = location.href;
  useEffect(() => {
    const changed = (): void => setVersion((version) => version + 1);
    addEventListener('popstate', changed);
    addEventListener(CHANGED, changed);
    // A child's effects run before its parent's: a redirect made there has come and gone before this listened.
    if (location.href !== rendered) changed();
    return () => {
      removeEventListener('popstate', changed);
      removeEventListener(CHANGED, changed);
    };
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/** A view's filters by name, each a string as the query string holds it; '' is "not set". */
export type Filters<K extends string> = Record<K, string>;

/** The filters named in `defaults` from the query string, each its default where absent. */
export function readFilters<K extends string>(defaults: Filters<K>): Filters<K> {
  const query = new URLSearchParams(location.search);
  const filters = { ...defaults };
  for (const name of Object.keys(defaults) as K[]) {
    const value = query.get(name);
    if (value !== null) filters[name] = value;
  }
  return filters;
}

/**
 * Writes `changes` into the query string, keeping the other parameters. A filter set back to its
 * default leaves the query string, so that a link carries only what was chosen.
 */
export function writeFilters<K extends string>(changes: Partial<Filters<K>>, defaults: Filters<K>, mode: 'push' | 'replace' = 'replace'): void {
  const query = new URLSearchParams(location.search);
  for (const [name, value] of Object.entries(changes) as [K, string | undefined][]) {
    if (value === undefined || value === defaults[name]) query.delete(name);
    else query.set(name, value);
  }
  const text = query.toString();
  navigate(`${location.pathname}${text === '' ? '' : `?${text}`}`, mode);
}

/** A view's filters, read from the address on every change of it, and the setter that writes them there. */
export function useFilters<K extends string>(defaults: Filters<K>): [Filters<K>, (changes: Partial<Filters<K>>, mode?: 'push' | 'replace') => void] {
  useLocation();
  return [readFilters(defaults), (changes, mode) => writeFilters(changes, defaults, mode)];
}
