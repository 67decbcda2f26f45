// The traces view (a placeholder until it is built): the list at /ui/traces, one trace at
// /ui/traces/<trace id>.
//
// data-testid: view-traces (the view's root), trace-id (the trace shown, at /ui/traces/<id>).
import type { Api } from '../api';
import { routeOf, useLocation } from '../url';

export function TracesView(_props: { api: Api }) {
  const route = routeOf(useLocation().path);
  const traceId = route.view === 'traces' ? route.traceId : undefined;
  return (
    <section class="view" data-testid="view-traces">
      <h1>Traces</h1>
      {traceId !== undefined && <p data-testid="trace-id">{traceId}</p>}
    </section>
  );
}
