// The backend's own words about a refused request, for a log line: the message of an OTLP
// google.rpc.Status (protobuf or JSON), else the body as text; always one bounded line.
import { Reader, WIRE_LEN } from '../../otlp/wire.js';
import { mediaType } from '../../runtime/http.js';

/** Characters of a backend's message kept for logs: a proxy's HTML error page must not flood them. */
export const MESSAGE_LIMIT = 512;


export function isProtobuf(type: string): boolean {
  return type === 'application/x-protobuf' || type === 'application/protobuf';
}

/** Text as one log line: control characters and runs of white space become one space; cut at `limit` characters. */
export function boundedText(text: string, limit = MESSAGE_LIMIT): string {
  const line = text.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  return line.length <= limit ? line : `${line.slice(0, limit)}… (${line.length - limit} more characters)`;
}

/** google.rpc.Status.message (field 2); undefined when the bytes are not a Status. */
function statusMessage(body: Buffer): string | undefined {
  const r = new Reader(body, 0, body.length);
  let message = '';
  try {
    while (r.more(body.length)) {
      const tag = r.varint();
      if (tag >>> 3 === 2 && (tag & 7) === WIRE_LEN) message = r.string();
      else r.skip(tag & 7);
    }
  } catch {
    return undefined;
  }
  return message;
}

function jsonMessage(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  // OTLP's Status has `message`; other backends answer {"error": "..."}.
  const { message, error } = parsed as Record<string, unknown>;
  if (typeof message === 'string' && message !== '') return message;
  if (typeof error === 'string' && error !== '') return error;
  return undefined;
}

/** What the backend said in an error body, as one bounded line; '' when it said nothing readable. */
export function backendMessage(body: Buffer, contentType: string | undefined): string {
  if (body.length === 0) return '';
  const type = mediaType(contentType);
  if (isProtobuf(type)) {
    const message = statusMessage(body);
    if (message !== undefined) return boundedText(message);
  }
  const text = body.toString('utf8');
  if (type === 'application/json') return boundedText(jsonMessage(text) ?? text);
  return boundedText(text);
}
