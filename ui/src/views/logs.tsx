// The logs view (a placeholder until it is built).
//
// data-testid: view-logs (the view's root).
import type { Api } from '../api';

export function LogsView(_props: { api: Api }) {
  return (
    <section class="view" data-testid="view-logs">
      <h1>Logs</h1>
    </section>
  );
}
