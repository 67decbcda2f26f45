// The Retry-After header (RFC 9110 §10.2.3): a number of seconds, or an HTTP date.

// The Collector parses dates as Go's time.RFC1123 ("Mon, 02 Jan 2006 15:04:05 GMT"); checking the
// shape first keeps Date.parse, which reads almost anything, to that form.
const HTTP_DATE = /^[A-Za-z]{3}, \d{1,2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} [A-Za-z]{1,5}$/;
const SECONDS = /^\d{1,10}$/;

/** The delay asked for in milliseconds (0 for a date already past), or undefined when the value is neither form. */
export function parseRetryAfter(value: string, nowMs: number): number | undefined {
  const text = value.trim();
  if (SECONDS.test(text)) return Number(text) * 1000;
  if (!HTTP_DATE.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
