// The metrics view (a placeholder until it is built).
//
// data-testid: view-metrics (the view's root).
import type { Api } from '../api';

export function MetricsView(_props: { api: Api }) {
  return (
    <section class="view" data-testid="view-metrics">
      <h1>Metrics</h1>
    </section>
  );
}
