// What the span processor does to one span: rename it from attributes, extract attributes from
// its name, set its status. Returns the span itself when nothing changes, else a new row.
import { withAttributes, type AnyValue, type MutableAttributes } from '../../model/anyvalue.js';
import type { SpanRow } from '../../model/traces.js';
import { compileRule, type SpanConfig } from './config.js';

const STATUS_CODES = { Unset: 0, Ok: 1, Error: 2 } as const;

function nameText(value: AnyValue): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'boolean':
    case 'number':
    case 'bigint':
      return String(value);
    default:
      return '<unknown-attribute-type>';
  }
}

export type SpanTransform = (span: SpanRow) => SpanRow;

export function spanTransform(config: SpanConfig): SpanTransform {
  const { from_attributes: from, separator } = config.name;
  const rules = (config.name.to_attributes?.rules ?? []).map(compileRule);
  const breakAfterMatch = config.name.to_attributes?.break_after_match ?? false;
  const keepName = config.name.to_attributes?.keep_original_name ?? false;
  const status = config.status === undefined ? undefined : { code: STATUS_CODES[config.status.code], message: config.status.code === 'Error' ? config.status.description : '' };

  return (span) => {
    let name = span.name;
    let attributes: MutableAttributes | undefined;

    if (from.length > 0 && from.every((key) => key in span.attributes)) {
      name = from.map((key) => nameText(span.attributes[key] as AnyValue)).join(separator);
    }

    if (name !== '') {
      for (const rule of rules) {
        const match = rule.exec(name);
        const groups = match?.indices?.groups;
        if (match === null || groups === undefined) continue;
        attributes ??= withAttributes(span.attributes);
        const found = Object.entries(groups)
          .filter((entry): entry is [string, [number, number]] => entry[1] !== undefined)
          .sort((a, b) => a[1][0] - b[1][0]);
        let rebuilt = '';
        let at = 0;
        for (const [group, [start, end]] of found) {
          attributes[group] = name.slice(start, end);
          rebuilt += `${name.slice(at, start)}{${group}}`;
          at = end;
        }
        if (!keepName) name = rebuilt + name.slice(at);
        if (breakAfterMatch) break;
      }
    }

    const changed = name !== span.name || attributes !== undefined || (status !== undefined && (status.code !== span.statusCode || status.message !== span.statusMessage));
    if (!changed) return span;
    return {
      ...span,
      name,
      attributes: attributes ?? span.attributes,
      statusCode: status?.code ?? span.statusCode,
      statusMessage: status?.message ?? span.statusMessage,
    };
  };
}
