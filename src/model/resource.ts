// Resource and instrumentation scope: decoded once per ResourceX / ScopeX message and shared by reference by every row under them.
import type { Attributes } from './anyvalue.js';

export interface Resource {
  readonly attributes: Attributes;
  readonly droppedAttributesCount: number;
  readonly schemaUrl: string;
}

export interface Scope {
  readonly name: string;
  readonly version: string;
  readonly attributes: Attributes;
  readonly droppedAttributesCount: number;
  readonly schemaUrl: string;
}
