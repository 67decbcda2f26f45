// Resource and instrumentation scope: decoded once per ResourceX / ScopeX message and shared by reference by every row under them.
import type { Attributes } from './anyvalue.js';

export interface Resource {
  attributes: Attributes;
  droppedAttributesCount: number;
  schemaUrl: string;
}

export interface Scope {
  name: string;
  version: string;
  attributes: Attributes;
  droppedAttributesCount: number;
  schemaUrl: string;
}
