// The filter processor's conditions, each compiled once from OTTL into a predicate over a log
// record; a condition that does not compile is a settings problem naming it and its column.
import { compileCondition, type Predicate } from '../../ottl/compile.js';
import { logContext, type LogContext } from '../../ottl/contexts/log.js';
import { OttlError } from '../../ottl/errors.js';
import { parseCondition } from '../../ottl/parser.js';
import type { SettingsProblem } from '../../runtime/component.js';

export interface CompiledCondition {
  text: string;
  matches: Predicate<LogContext>;
}

export function compileLogConditions(texts: readonly string[]): { conditions: CompiledCondition[] } | { problems: SettingsProblem[] } {
  const conditions: CompiledCondition[] = [];
  const problems: SettingsProblem[] = [];
  texts.forEach((text, i) => {
    try {
      conditions.push({ text, matches: compileCondition(parseCondition(text), logContext) });
    } catch (error) {
      if (!(error instanceof OttlError)) throw error;
      problems.push({ path: ['logs', 'log_record', i], message: `${JSON.stringify(text)}, ${error.message}` });
    }
  });
  return problems.length > 0 ? { problems } : { conditions };
}
