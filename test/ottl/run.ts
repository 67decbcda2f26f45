// Runs OTTL statements on one log record as the transform processor does (a draft of the row,
// copy-on-write), for the converter and editor tables.
import { expect } from 'vitest';
import { withAttributes, type AnyValue } from '../../src/model/anyvalue.js';
import type { LogRow } from '../../src/model/logs.js';
import { compileStatement } from '../../src/ottl/compile.js';
import { newDraft } from '../../src/ottl/contexts/draft.js';
import { logStatementContexts, type LogDraft } from '../../src/ottl/contexts/setters.js';
import { parseStatement } from '../../src/ottl/parser.js';
import { attrs, logRow } from '../helpers/rows.js';

export function baseRow(attributes: Record<string, AnyValue> = {}): LogRow {
  return { ...logRow(0), attributes: attrs(attributes) };
}

/**
 * The row after `statements`, and the row it started as (which must not change). The same
 * statements on a copy of the row in an exclusive batch, whose attributes map they change in
 * place, must leave the same row.
 */
export function run(statements: readonly string[], row: LogRow = baseRow()): LogRow {
  const context = logStatementContexts.log;
  if (context === undefined) throw new Error('no log context');
  const actions = statements.map((text) => compileStatement(parseStatement(text), context));
  const once = (start: LogRow, exclusive: boolean): LogDraft => {
    const draft: LogDraft = newDraft(start, 'shop', exclusive);
    for (const action of actions) action(draft);
    return draft;
  };
  const out = once(row, false).row;
  const own = withAttributes(row.attributes);
  const exclusive = once({ ...row, attributes: own }, true);
  expect(exclusive.row).toEqual(out);
  // A change made in place is marked, so that the rows go on in a new array (otlp/source.ts).
  if (!exclusive.inPlace) expect({ ...own }).toEqual({ ...row.attributes });
  return out;
}

/** The value `expression` gives, set into an attribute and read back. */
export function valueOf(expression: string, attributes: Record<string, AnyValue> = {}): AnyValue {
  return run([`set(attributes["out"], ${expression})`], baseRow(attributes)).attributes.out ?? null;
}
