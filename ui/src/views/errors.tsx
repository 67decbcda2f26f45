// The errors view (a placeholder until it is built).
//
// data-testid: view-errors (the view's root).
import type { Api } from '../api';

export function ErrorsView(_props: { api: Api }) {
  return (
    <section class="view" data-testid="view-errors">
      <h1>Errors</h1>
    </section>
  );
}
