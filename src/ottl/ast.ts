// OTTL's syntax tree, as the parser makes it from a statement or a condition. Every node keeps the
// column it starts at, for errors found when it is compiled.

/** `["key"]` or `[0]` after a path field or a converter call. */
export type Key = { kind: 'string'; value: string; column: number } | { kind: 'int'; value: bigint; column: number };

export interface PathField {
  name: string;
  keys: Key[];
  column: number;
}

export interface Argument {
  /** `name = value`, when named. */
  name: string | undefined;
  value: Value;
  column: number;
}

export interface Call {
  name: string;
  args: Argument[];
  keys: Key[];
  column: number;
}

export type MathOp = '+' | '-' | '*' | '/';
export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

export type Value =
  | { kind: 'nil'; column: number }
  | { kind: 'string'; value: string; column: number }
  | { kind: 'int'; value: bigint; column: number }
  | { kind: 'float'; value: number; column: number }
  | { kind: 'bool'; value: boolean; column: number }
  | { kind: 'bytes'; value: Uint8Array; column: number }
  /** An upper-case name: an enum (SEVERITY_NUMBER_WARN), or a function passed by name (SHA256). */
  | { kind: 'enum'; name: string; column: number }
  | { kind: 'path'; fields: PathField[]; column: number }
  | { kind: 'converter'; call: Call; column: number }
  | { kind: 'math'; op: MathOp; left: Value; right: Value; column: number }
  | { kind: 'negate'; value: Value; column: number }
  | { kind: 'map'; entries: { key: string; value: Value }[]; column: number }
  | { kind: 'list'; values: Value[]; column: number };

export type Condition =
  | { kind: 'or'; left: Condition; right: Condition }
  | { kind: 'and'; left: Condition; right: Condition }
  | { kind: 'not'; condition: Condition; column: number }
  | { kind: 'compare'; op: CompareOp; left: Value; right: Value; column: number }
  | { kind: 'const'; value: boolean; column: number }
  /** A converter that must return a boolean (IsMatch(...)). */
  | { kind: 'converter'; call: Call; column: number };

export interface Statement {
  editor: Call;
  where: Condition | undefined;
}
