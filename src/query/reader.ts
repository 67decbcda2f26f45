// What the read API asks of a component that keeps data: rows of one project, as JSON text, newest first.
import type { Component } from '../runtime/component.js';
import type { Query } from './params.js';

export interface Reader extends Component {
  /** Each row is one JSON object's text in the read API's form (docs/read-api.md). */
  read(project: string, query: Query): string[];
}

export function isReader(component: Component | undefined): component is Reader {
  return component !== undefined && typeof (component as Partial<Reader>).read === 'function';
}
