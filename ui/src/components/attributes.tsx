// Attributes (of a log record, a span, an event, a link, a resource, an error's latest event) as a table of key and value, keys sorted so
// that a key is found where one looks for it. A string is shown as itself, any other value (number,
// boolean, array, map) as its JSON text.
//
// data-testid: the table takes the one it is given; each row is `attribute` (data-key: its key),
// with `attribute-key` and `attribute-value` cells.
import { attributeText } from '../lib/format';
import type { Attributes } from '../rows';
import './attributes.css';

export function AttributeTable(props: { attributes: Attributes; dropped?: number; testid: string; label: string }) {
  const keys = Object.keys(props.attributes).sort();
  const dropped = props.dropped ?? 0;
  return (
    <>
      {keys.length === 0 ? (
        <p class="muted" data-testid={props.testid}>
          None.
        </p>
      ) : (
        <table class="attributes" data-testid={props.testid} aria-label={props.label}>
          <tbody>
            {keys.map((key) => (
              <tr key={key} data-testid="attribute" data-key={key}>
                <th scope="row" data-testid="attribute-key">
                  {key}
                </th>
                <td data-testid="attribute-value">{attributeText(props.attributes[key] ?? null)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {dropped > 0 && <p class="muted">{dropped === 1 ? '1 more was dropped by the sender.' : `${dropped} more were dropped by the sender.`}</p>}
    </>
  );
}
