// The transform processor's statement groups, compiled once: each group's context (given, or
// inferred from the paths its statements name, as the Collector infers it), its conditions and its
// statements as closures over a row being transformed.
import type { Condition, Statement, Value } from '../../ottl/ast.js';
import { compileCondition, compileStatement, type Predicate } from '../../ottl/compile.js';
import type { Action } from '../../ottl/editors.js';
import { logStatementContexts, spanStatementContexts, type LogDraft, type SpanDraft, type StatementContexts } from '../../ottl/contexts/setters.js';
import { parseCondition, parseStatement } from '../../ottl/parser.js';
import type { SettingsProblem } from '../../runtime/component.js';
import { compiledAt } from '../helper/ottl.js';
import type { ERROR_MODES } from '../filter/config.js';
import type { TransformConfig } from './config.js';

export type ErrorMode = (typeof ERROR_MODES)[number];

export interface CompiledGroup<C> {
  /** The row's own context, or `resource` / `scope`: run once per resource or scope of a batch. */
  context: string;
  errorMode: ErrorMode;
  conditions: { text: string; matches: Predicate<C> }[];
  statements: { text: string; run: Action<C> }[];
}

type Compiled<C> = { groups: CompiledGroup<C>[] } | { problems: SettingsProblem[] };

type Entry = TransformConfig['log_statements'][number];

const CONTEXT_NAMES = new Set(['log', 'span', 'spanevent', 'resource', 'scope', 'instrumentation_scope']);

/** The context each path in a value, a condition or a statement names ('' for none). */
function contextNames(node: Value | Condition | Statement, into: Set<string>): Set<string> {
  if ('editor' in node) {
    for (const arg of node.editor.args) contextNames(arg.value, into);
    if (node.where !== undefined) contextNames(node.where, into);
    return into;
  }
  switch (node.kind) {
    case 'path': {
      // A path that names no context is the row's own (''), as written in a group with a context; project is every context's.
      const first = (node.fields[0] as { name: string }).name;
      if (node.fields.length > 1 && CONTEXT_NAMES.has(first)) into.add(first);
      else if (first !== 'project') into.add('');
      break;
    }
    case 'converter':
      for (const arg of node.call.args) contextNames(arg.value, into);
      break;
    case 'math':
    case 'compare':
    case 'or':
    case 'and':
      contextNames(node.left, into);
      contextNames(node.right, into);
      break;
    case 'negate':
      contextNames(node.value, into);
      break;
    case 'not':
      contextNames(node.condition, into);
      break;
    case 'map':
      for (const entry of node.entries) contextNames(entry.value, into);
      break;
    case 'list':
      for (const value of node.values) contextNames(value, into);
      break;
    default:
      break;
  }
  return into;
}

/** The context the Collector infers: the lowest one a path names; the row's own for a path that names none. */
function inferred(names: Set<string>, row: string): string {
  if (names.has('spanevent')) return 'spanevent';
  if (names.has(row) || names.has('')) return row;
  if (names.has('scope') || names.has('instrumentation_scope')) return 'scope';
  if (names.has('resource')) return 'resource';
  return row;
}

function compileGroups<C>(entries: readonly Entry[], contexts: StatementContexts<C>, row: string, key: string, topMode: ErrorMode): Compiled<C> {
  const groups: CompiledGroup<C>[] = [];
  const problems: SettingsProblem[] = [];
  entries.forEach((entry, i) => {
    const texts = typeof entry === 'string' ? [entry] : entry.statements;
    const conditionTexts = typeof entry === 'string' ? [] : (entry.conditions ?? []);
    const where = (kind: 'statements' | 'conditions', j: number): (string | number)[] => (typeof entry === 'string' ? [key, i] : [key, i, kind, j]);
    const parse = <T>(text: string, at: (string | number)[], read: (t: string) => T): T | undefined => compiledAt(text, at, problems, read);
    const statements = texts.map((text, j) => parse(text, where('statements', j), parseStatement));
    const conditions = conditionTexts.map((text, j) => parse(text, where('conditions', j), parseCondition));
    if (statements.includes(undefined) || conditions.includes(undefined)) return;
    const names = new Set<string>();
    for (const node of [...(statements as Statement[]), ...(conditions as Condition[])]) contextNames(node, names);
    const contextName = (typeof entry === 'string' ? undefined : entry.context) ?? inferred(names, row);
    const context = contexts[contextName];
    if (context === undefined) {
      problems.push({ path: typeof entry === 'string' ? [key, i] : [key, i, 'context'], message: `statements in the ${contextName} context are not supported in otelgate yet; use the ${row}, resource or scope context` });
      return;
    }
    const group: CompiledGroup<C> = { context: contextName, errorMode: (typeof entry === 'string' ? undefined : entry.error_mode) ?? topMode, conditions: [], statements: [] };
    const compile = <T>(text: string, at: (string | number)[], make: () => T): T | undefined => parse(text, at, make);
    (conditions as Condition[]).forEach((node, j) => {
      const matches = compile(conditionTexts[j] as string, where('conditions', j), () => compileCondition(node, context));
      if (matches !== undefined) group.conditions.push({ text: conditionTexts[j] as string, matches });
    });
    (statements as Statement[]).forEach((node, j) => {
      const run = compile(texts[j] as string, where('statements', j), () => compileStatement(node, context));
      if (run !== undefined) group.statements.push({ text: texts[j] as string, run });
    });
    groups.push(group);
  });
  return problems.length > 0 ? { problems } : { groups };
}

export function compiledTransform(config: TransformConfig): { logs: Compiled<LogDraft>; traces: Compiled<SpanDraft> } {
  return {
    logs: compileGroups(config.log_statements, logStatementContexts, 'log', 'log_statements', config.error_mode),
    traces: compileGroups(config.trace_statements, spanStatementContexts, 'span', 'trace_statements', config.error_mode),
  };
}
