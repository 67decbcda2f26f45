// OTTL syntax trees to closures over a context (a log record with its resource and scope, say):
// paths, enums, converters and their arguments are all resolved here, once, when the config is
// loaded; evaluating a condition on a row is then calls of closures, with no lookup by name.
import { attribute, isAttributes, newAttributes, type AnyValue } from '../model/anyvalue.js';
import { hint } from '../config/suggest.js';
import type { Argument, Call, Condition, Key, PathField, Statement, Value } from './ast.js';
import { EDITORS, EditorSettingsError, type Action, type Editor } from './editors.js';
import { copiedIfMadeHere } from './contexts/draft.js';
import { ENUMS } from './enums.js';
import { OttlError, OttlRuntimeError } from './errors.js';
import type { Bound, Converter, FunctionArgument, Getter as AnyGetter, Param, PathArgument } from './arguments.js';
import { CONVERTERS } from './functions.js';
import { UnsafeRegexError } from './regex.js';
import { compareValues, isTimeKind, mathValues, stored, typeName, type OttlValue } from './values.js';

/** A path's value, as a row holds it. */
export type Getter<C> = (ctx: C) => AnyValue;
/** An expression's value, which may also be a time or a duration. */
export type ValueGetter<C> = (ctx: C) => OttlValue;
export type Predicate<C> = (ctx: C) => boolean;
/** Writes a path's value; a value of a type the path cannot hold is ignored, as the Collector's setters ignore it. */
export type Setter<C> = (ctx: C, value: OttlValue) => void;

/** What a context (log, span, ...) offers: its paths. */
export interface OttlContext<C> {
  /** The context's name, as the Collector's (`log`). */
  name: string;
  /** A getter for the path, or undefined when the context has none such; throws an OttlError for a path it knows but that is used wrongly. */
  path(fields: readonly PathField[]): ValueGetter<C> | undefined;
  /** Its paths as written, for "did you mean". */
  paths: readonly string[];
  /** A setter for the path; undefined for a path that cannot be set (or that it does not have). Contexts for conditions only have none. */
  setter?(fields: readonly PathField[]): Setter<C> | undefined;
  /** Enums of this context only, over the shared ones (a data point's FLAG_*). */
  enums?: ReadonlyMap<string, bigint>;
  /** Converters and editors of this context only, over the shared ones (the metric context's). */
  converters?: Readonly<Record<string, Converter>>;
  editors?: Readonly<Record<string, Editor>>;
  /** The Collector's functions of this context that otelgate does not have, with why: refused by name rather than as unknown. */
  refused?: Readonly<Record<string, string>>;
}

const own = <T>(record: Readonly<Record<string, T>> | undefined, name: string): T | undefined => (record !== undefined && Object.hasOwn(record, name) ? record[name] : undefined);

/** Whether `context` has the converter or editor `name` (a refused one it has not). */
export function hasFunction<C>(context: OttlContext<C>, name: string): boolean {
  return Object.hasOwn(CONVERTERS, name) || Object.hasOwn(EDITORS, name) || own(context.converters, name) !== undefined || own(context.editors, name) !== undefined;
}

/** The value of `keys` applied one after another to `value`: a map by a string, a slice by an index; nil when absent. */
export function indexed(value: AnyValue, keys: readonly Key[]): AnyValue {
  let current = value;
  for (const key of keys) {
    if (current === null) return null;
    if (key.kind === 'string') {
      if (!isAttributes(current)) throw new OttlRuntimeError(`cannot index a ${typeName(current)} by "${key.value}": only a map takes a string key`);
      current = attribute(current, key.value) ?? null;
    } else {
      if (!Array.isArray(current)) throw new OttlRuntimeError(`cannot index a ${typeName(current)} by ${key.value}: only a slice takes an integer key`);
      const list = current as readonly AnyValue[];
      if (key.value < 0n || key.value >= BigInt(list.length)) throw new OttlRuntimeError(`index ${key.value} is out of range for a slice of ${list.length}`);
      current = list[Number(key.value)] as AnyValue;
    }
  }
  return current;
}

export function pathText(fields: readonly PathField[]): string {
  return fields.map((f) => f.name + f.keys.map((k) => (k.kind === 'string' ? `[${JSON.stringify(k.value)}]` : `[${k.value}]`)).join('')).join('.');
}

class Compiler<C> {
  constructor(private readonly context: OttlContext<C>) {}

  value(node: Value): ValueGetter<C> {
    switch (node.kind) {
      case 'nil':
        return () => null;
      case 'string':
      case 'int':
      case 'float':
      case 'bool':
      case 'bytes': {
        const constant = node.value;
        return () => constant;
      }
      case 'enum': {
        const constant = this.context.enums?.get(node.name) ?? ENUMS.get(node.name);
        if (constant === undefined) throw new OttlError(node.column, `${node.name} is not an enum OTTL knows.${hint(node.name, [...ENUMS.keys(), ...(this.context.enums?.keys() ?? [])], 'enums')}`);
        return () => constant;
      }
      case 'path': {
        const getter = this.context.path(node.fields);
        if (getter === undefined) {
          const written = pathText(node.fields);
          const name = node.fields.map((f) => f.name).join('.');
          // The same path under another context's name (span.kind in a span event's context) is the likeliest meaning.
          const prefixed = this.context.paths.find((p) => p.endsWith(`.${name}`));
          // The context's paths are listed without its own name (unit, not metric.unit).
          const bare = name.startsWith(`${this.context.name}.`) ? name.slice(this.context.name.length + 1) : name;
          const suggestion = prefixed === undefined ? hint(bare, this.context.paths, 'paths') : ` Did you mean "${prefixed}"?`;
          throw new OttlError(node.column, `${written} is not a path of the ${this.context.name} context.${suggestion}`);
        }
        return getter;
      }
      case 'converter':
        return this.converter(node.call);
      case 'math': {
        const left = this.value(node.left);
        const right = this.value(node.right);
        const op = node.op;
        return (ctx) => mathValues(left(ctx), op, right(ctx));
      }
      case 'negate': {
        const inner = this.value(node.value);
        return (ctx) => {
          const value = inner(ctx);
          if (typeof value === 'bigint') return BigInt.asIntN(64, -value);
          if (typeof value === 'number') return -value;
          throw new OttlRuntimeError(`cannot negate a ${typeName(value)}`);
        };
      }
      case 'map': {
        const entries = node.entries.map(({ key, value }) => [key, this.value(value)] as const);
        // A map a transform's statements made goes in as a copy: it may still change in place where it is.
        return (ctx) => {
          const map = newAttributes();
          for (const [key, getter] of entries) map[key] = copiedIfMadeHere(ctx, stored(getter(ctx), 'a map literal'));
          return map;
        };
      }
      case 'list': {
        const items = node.values.map((v) => this.value(v));
        return (ctx) => items.map((item) => copiedIfMadeHere(ctx, stored(item(ctx), 'a list literal')));
      }
    }
  }

  private converter(call: Call): ValueGetter<C> {
    const converter = own(this.context.converters, call.name) ?? CONVERTERS[call.name];
    if (converter === undefined) {
      this.refuse(call);
      const editor = Object.hasOwn(EDITORS, call.name) || own(this.context.editors, call.name) !== undefined ? ` ${call.name} is an editor: it starts a statement, it gives no value.` : '';
      throw new OttlError(call.column, `${call.name} is not a converter otelgate has.${editor || hint(call.name, [...Object.keys(CONVERTERS), ...Object.keys(this.context.converters ?? {})], 'converters')}`);
    }
    let getter: ValueGetter<C>;
    try {
      getter = converter.bind(this.arguments(call, converter.params)) as ValueGetter<C>;
    } catch (error) {
      if (error instanceof UnsafeRegexError) throw new OttlError(call.column, `${call.name}: ${error.message}`);
      throw error;
    }
    if (call.keys.length === 0) return getter;
    const keys = call.keys;
    return (ctx) => {
      const value = getter(ctx);
      if (isTimeKind(value)) throw new OttlRuntimeError(`cannot index a ${typeName(value)}`);
      return indexed(value, keys);
    };
  }

  /** `call`'s arguments bound to `params`: by position, then by name. */
  arguments(call: Call, params: readonly Param[]): Bound[] {
    const given: (Argument | undefined)[] = new Array<Argument | undefined>(params.length).fill(undefined);
    call.args.forEach((arg, i) => {
      if (arg.name === undefined && call.args.slice(0, i).some((earlier) => earlier.name !== undefined)) {
        throw new OttlError(arg.column, `${call.name}: an argument without a name comes after a named one; name it too, or put it first`);
      }
      const at = arg.name === undefined ? i : params.findIndex((p) => p.name === arg.name);
      if (arg.name !== undefined && at < 0) throw new OttlError(arg.column, `${call.name} has no parameter ${arg.name}; it takes ${params.map((p) => p.name).join(', ')}`);
      if (at >= params.length) throw new OttlError(arg.column, `${call.name} takes ${params.length} argument${params.length === 1 ? '' : 's'} (${params.map((p) => p.name).join(', ')}), not ${call.args.length}`);
      if (given[at] !== undefined) throw new OttlError(arg.column, `${call.name}'s ${params[at]?.name} is given twice`);
      given[at] = arg;
    });
    return params.map((param, i) => {
      const arg = given[i];
      if (arg === undefined) {
        if (param.optional === true) return undefined;
        throw new OttlError(call.column, `${call.name} needs its ${param.name} (it takes ${params.map((p) => p.name).join(', ')})`);
      }
      const value = arg.value;
      switch (param.kind) {
        case 'value':
          return this.value(value) as AnyGetter;
        case 'path': {
          if (value.kind !== 'path') throw new OttlError(arg.column, `${call.name}'s ${param.name} must be a path, such as attributes["k"]`);
          const set = this.context.setter?.(value.fields);
          if (set === undefined) throw new OttlError(arg.column, `${pathText(value.fields)} cannot be set in the ${this.context.name} context${this.context.path(value.fields) === undefined ? ': it is not one of its paths' : ''}`);
          return { get: this.value(value) as AnyGetter, set: set as PathArgument['set'] };
        }
        case 'literal string':
          if (value.kind !== 'string') throw new OttlError(arg.column, `${call.name}'s ${param.name} must be a string written in the statement`);
          return value.value;
        case 'literal int':
          if (value.kind !== 'int') throw new OttlError(arg.column, `${call.name}'s ${param.name} must be an integer written in the statement`);
          return value.value;
        case 'literal bool':
          if (value.kind !== 'bool') throw new OttlError(arg.column, `${call.name}'s ${param.name} must be true or false written in the statement`);
          return value.value;
        case 'literal bytes':
          if (value.kind !== 'bytes') throw new OttlError(arg.column, `${call.name}'s ${param.name} must be bytes written in the statement, as 0x0102`);
          return value.value;
        case 'function':
          return this.functionArgument(call, param, arg);
        case 'list of values':
          if (value.kind !== 'list') throw new OttlError(arg.column, `${call.name}'s ${param.name} must be a list written in the statement, as [a, b]`);
          return value.values.map((v) => this.value(v) as AnyGetter);
        case 'list of strings':
          if (value.kind !== 'list' || value.values.some((v) => v.kind !== 'string')) throw new OttlError(arg.column, `${call.name}'s ${param.name} must be a list of strings written in the statement, as ["a", "b"]`);
          return value.values.map((v) => (v as { value: string }).value);
      }
    });
  }

  /** A converter passed by name (SHA256) to be applied to one value, as the Collector's FunctionGetter: one that takes a single value. */
  private functionArgument(call: Call, param: Param, arg: Argument): FunctionArgument {
    const value = arg.value;
    const name = value.kind === 'enum' ? value.name : undefined;
    const converter = name !== undefined && Object.hasOwn(CONVERTERS, name) ? CONVERTERS[name] : undefined;
    if (converter === undefined || converter.params.filter((p) => p.optional !== true).length !== 1 || converter.params[0]?.kind !== 'value') {
      throw new OttlError(arg.column, `${call.name}'s ${param.name} must be the name of a converter that takes one value, such as SHA256`);
    }
    return (input) => converter.bind([input]);
  }

  /** Throws for a function of the Collector's that this context refuses, saying why. */
  private refuse(call: Call): void {
    const why = own(this.context.refused, call.name);
    if (why !== undefined) throw new OttlError(call.column, `${call.name} ${why}`);
  }

  statement(node: Statement): Action<C> {
    const { editor: call, where } = node;
    const editor = own(this.context.editors, call.name) ?? own(EDITORS, call.name);
    if (editor === undefined) {
      this.refuse(call);
      const converter = Object.hasOwn(CONVERTERS, call.name) || own(this.context.converters, call.name) !== undefined ? ` ${call.name} is a converter: it gives a value to an editor, such as set(attributes["k"], ${call.name}(...)).` : '';
      throw new OttlError(call.column, `${call.name} is not an editor otelgate has.${converter || hint(call.name, [...Object.keys(EDITORS), ...Object.keys(this.context.editors ?? {})], 'editors')}`);
    }
    let action: Action<C>;
    try {
      action = editor.bind(this.arguments(call, editor.params)) as Action<C>;
    } catch (error) {
      if (error instanceof UnsafeRegexError || error instanceof EditorSettingsError) throw new OttlError(call.column, `${call.name}: ${error.message}`);
      throw error;
    }
    if (where === undefined) return action;
    const when = this.condition(where);
    return (ctx) => {
      if (when(ctx)) action(ctx);
    };
  }

  condition(node: Condition): Predicate<C> {
    switch (node.kind) {
      case 'or': {
        const left = this.condition(node.left);
        const right = this.condition(node.right);
        return (ctx) => left(ctx) || right(ctx);
      }
      case 'and': {
        const left = this.condition(node.left);
        const right = this.condition(node.right);
        return (ctx) => left(ctx) && right(ctx);
      }
      case 'not': {
        const inner = this.condition(node.condition);
        return (ctx) => !inner(ctx);
      }
      case 'const': {
        const constant = node.value;
        return () => constant;
      }
      case 'compare': {
        const left = this.value(node.left);
        const right = this.value(node.right);
        const op = node.op;
        // OTTL's == and != hold text equal to text only, as JavaScript's === and !== do: a
        // filter's `attributes["k"] == "v"` costs one comparison, not compareValues' type checks.
        const text = node.right.kind === 'string' ? node.right.value : node.left.kind === 'string' ? node.left.value : undefined;
        if (text !== undefined && (op === '==' || op === '!=')) {
          const other = node.right.kind === 'string' ? left : right;
          return op === '==' ? (ctx) => other(ctx) === text : (ctx) => other(ctx) !== text;
        }
        return (ctx) => compareValues(left(ctx), right(ctx), op);
      }
      case 'converter': {
        const getter = this.converter(node.call);
        const name = node.call.name;
        return (ctx) => {
          const value = getter(ctx);
          if (typeof value !== 'boolean') throw new OttlRuntimeError(`${name} must give a boolean in a condition, not a ${typeName(value)}`);
          return value;
        };
      }
    }
  }
}

export function compileCondition<C>(node: Condition, context: OttlContext<C>): Predicate<C> {
  return new Compiler(context).condition(node);
}

export function compileValue<C>(node: Value, context: OttlContext<C>): ValueGetter<C> {
  return new Compiler(context).value(node);
}

export function compileStatement<C>(node: Statement, context: OttlContext<C>): Action<C> {
  return new Compiler(context).statement(node);
}
