// The transform processor's statement groups, compiled once: each group's context (given, or
// inferred from the paths its statements name, as the Collector infers it), its conditions and its
// statements as closures over a row being transformed.
import type { Condition, Statement, Value } from '../../ottl/ast.js';
import { compileCondition, compileStatement, hasFunction, type Predicate } from '../../ottl/compile.js';
import type { Action } from '../../ottl/editors.js';
import { metricStatementContexts, type MetricDraft } from '../../ottl/contexts/metric-setters.js';
import { logStatementContexts, spanStatementContexts, type LogDraft, type SpanDraft, type StatementContexts } from '../../ottl/contexts/setters.js';
import { parseCondition, parseStatement } from '../../ottl/parser.js';
import type { SettingsProblem } from '../../runtime/component.js';
import { compiledAt } from '../helper/ottl.js';
import type { ERROR_MODES } from '../filter/config.js';
import type { TransformConfig } from './config.js';

export type ErrorMode = (typeof ERROR_MODES)[number];

export interface CompiledGroup<C> {
  /** The row's own context, or `metric` / `resource` / `scope`: run once per metric, resource or scope of a batch. */
  context: string;
  errorMode: ErrorMode;
  conditions: { text: string; matches: Predicate<C> }[];
  statements: { text: string; run: Action<C> }[];
}

type Compiled<C> = { groups: CompiledGroup<C>[] } | { problems: SettingsProblem[] };

type Entry = TransformConfig['log_statements'][number];

/** A signal's statements: where they are in the settings, their row's context, and the contexts they may name. */
interface SignalStatements<C> {
  key: string;
  row: string;
  /** Most specific first, as the Collector's inference prefers them. */
  order: readonly string[];
  contexts: StatementContexts<C>;
}

/** What a statement or condition tells of its context: the contexts its paths name ('' for a path that names none), and the functions it calls. */
interface Hints {
  names: Set<string>;
  functions: Set<string>;
}

/** `instrumentation_scope.` is the scope context's other name. */
const named = (name: string): string => (name === 'instrumentation_scope' ? 'scope' : name);

function hints(node: Value | Condition | Statement, order: readonly string[], into: Hints): Hints {
  if ('editor' in node) {
    into.functions.add(node.editor.name);
    for (const arg of node.editor.args) hints(arg.value, order, into);
    if (node.where !== undefined) hints(node.where, order, into);
    return into;
  }
  switch (node.kind) {
    case 'path': {
      // A path that names no context is the row's own (''), as written in a group with a context; project is every context's.
      const first = named((node.fields[0] as { name: string }).name);
      if (node.fields.length > 1 && order.includes(first)) into.names.add(first);
      else if (first !== 'project') into.names.add('');
      break;
    }
    case 'converter':
      into.functions.add(node.call.name);
      for (const arg of node.call.args) hints(arg.value, order, into);
      break;
    case 'math':
    case 'compare':
    case 'or':
    case 'and':
      hints(node.left, order, into);
      hints(node.right, order, into);
      break;
    case 'negate':
      hints(node.value, order, into);
      break;
    case 'not':
      hints(node.condition, order, into);
      break;
    case 'map':
      for (const entry of node.entries) hints(entry.value, order, into);
      break;
    case 'list':
      for (const value of node.values) hints(value, order, into);
      break;
    default:
      break;
  }
  return into;
}

/**
 * The context the Collector infers: the most specific one a path names (the row's own for a path
 * that names none). When that one lacks a function the statements call (convert_sum_to_gauge is the
 * metric context's), the first more specific one that has them all, as the Collector falls back to
 * its lower contexts; with no context named, the first of all that has them.
 */
function inferred<C>({ names, functions }: Hints, signal: SignalStatements<C>): string {
  const at = signal.order.findIndex((name) => names.has(name) || (name === signal.row && names.has('')));
  const chosen = signal.order[at] ?? signal.row;
  const hasAll = (name: string): boolean => {
    const context = signal.contexts[name];
    return context !== undefined && [...functions].every((f) => hasFunction(context, f));
  };
  if (hasAll(chosen)) return chosen;
  const anyNamed = names.size > (names.has('') ? 1 : 0);
  return (anyNamed ? signal.order.slice(0, at) : signal.order).find(hasAll) ?? chosen;
}

/** "a, b or c". */
const either = (names: readonly string[]): string => (names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1) as string}` : (names[0] ?? ''));

function compileGroups<C>(entries: readonly Entry[], signal: SignalStatements<C>, topMode: ErrorMode): Compiled<C> {
  const { key, contexts } = signal;
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
    const found: Hints = { names: new Set(), functions: new Set() };
    for (const node of [...(statements as Statement[]), ...(conditions as Condition[])]) hints(node, signal.order, found);
    const contextName = (typeof entry === 'string' ? undefined : entry.context) ?? inferred(found, signal);
    const context = contexts[contextName];
    if (context === undefined) {
      problems.push({ path: typeof entry === 'string' ? [key, i] : [key, i, 'context'], message: `statements in the ${contextName} context are not supported in otelgate yet; use the ${either(Object.keys(contexts))} context` });
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

const LOGS: SignalStatements<LogDraft> = { key: 'log_statements', row: 'log', order: ['log', 'scope', 'resource'], contexts: logStatementContexts };
const TRACES: SignalStatements<SpanDraft> = { key: 'trace_statements', row: 'span', order: ['spanevent', 'span', 'scope', 'resource'], contexts: spanStatementContexts };
const METRICS: SignalStatements<MetricDraft> = { key: 'metric_statements', row: 'datapoint', order: ['datapoint', 'metric', 'scope', 'resource'], contexts: metricStatementContexts };

export function compiledTransform(config: TransformConfig): { logs: Compiled<LogDraft>; traces: Compiled<SpanDraft>; metrics: Compiled<MetricDraft> } {
  return {
    logs: compileGroups(config.log_statements, LOGS, config.error_mode),
    traces: compileGroups(config.trace_statements, TRACES, config.error_mode),
    metrics: compileGroups(config.metric_statements, METRICS, config.error_mode),
  };
}
