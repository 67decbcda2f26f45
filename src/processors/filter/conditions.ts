// The filter processor's conditions, each compiled once from OTTL into a predicate over a row in
// its context; a condition that does not compile is a settings problem naming it and its column.
import { compileCondition, type OttlContext, type Predicate } from '../../ottl/compile.js';
import { parseCondition } from '../../ottl/parser.js';
import type { SettingsProblem } from '../../runtime/component.js';
import { compiledAt } from '../helper/ottl.js';

export interface CompiledCondition<C> {
  text: string;
  matches: Predicate<C>;
}

/** `texts` compiled in `context`; `path`: where they are in the settings (logs, log_record). */
export function compileConditions<C>(texts: readonly string[], context: OttlContext<C>, path: readonly string[]): { conditions: CompiledCondition<C>[] } | { problems: SettingsProblem[] } {
  const conditions: CompiledCondition<C>[] = [];
  const problems: SettingsProblem[] = [];
  texts.forEach((text, i) => {
    const matches = compiledAt(text, [...path, i], problems, () => compileCondition(parseCondition(text), context));
    if (matches !== undefined) conditions.push({ text, matches });
  });
  return problems.length > 0 ? { problems } : { conditions };
}
