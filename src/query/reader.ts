// What the read API asks of a component that keeps data: rows of one project, or aggregates of them, as JSON text.
import type { Component } from '../runtime/component.js';
import type { ReadQuery } from './params.js';

export interface ReadResult {
  /** Each row is one JSON object's text in the read API's form (docs/read-api.md): a stored row, or an aggregate's. */
  rows: string[];
  /** True when the answer stopped before `limit` because it grew too large. */
  truncated: boolean;
}

export interface Reader extends Component {
  read(project: string, query: ReadQuery): Promise<ReadResult>;
}

/** A read the store would not run or finish: answered 503, with Retry-After when trying again soon can help. */
export class ReadRefused extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export function isReader(component: Component | undefined): component is Reader {
  return component !== undefined && typeof (component as Partial<Reader>).read === 'function';
}
