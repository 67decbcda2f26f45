// The processors of the bench's processor pipelines (run.mjs) as the `processors:` section of a
// config, shared with instructions.mjs, which runs them in process.
//
// A filter with three conditions of the kind users write (none matches the bench's records, so
// every condition is evaluated on every record, the regex included); an attributes processor of
// two actions and a transform of three statements, each changing every record; a redaction with
// the redaction README's example values (card numbers, e-mail addresses, bearer tokens), none of
// which matches.
export const PROCESSORS =
  `processors:\n  filter:\n    logs:\n      log_record:\n` +
  `        - 'attributes["url.path"] == "/health"'\n` +
  `        - 'severity_number < SEVERITY_NUMBER_INFO and severity_number != SEVERITY_NUMBER_UNSPECIFIED'\n` +
  `        - 'IsMatch(body, "^(DEBUG|TRACE) ")'\n` +
  `  attributes:\n    actions:\n` +
  `      - {key: deployment.environment.name, value: production, action: insert}\n` +
  `      - {key: http.request.method, action: hash}\n` +
  `  transform:\n    log_statements:\n` +
  `      - 'set(log.attributes["deployment.environment"], "prod")'\n` +
  `      - 'replace_pattern(log.attributes["url.path"], "/[0-9]+$", "/{id}")'\n` +
  `      - 'delete_key(log.attributes, "duration_ms")'\n` +
  `  redaction:\n    allow_all_keys: true\n    blocked_values:\n` +
  `      - '\\b(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|3[47][0-9]{13})\\b'\n` +
  `      - '\\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}\\b'\n` +
  `      - '[Bb]earer [A-Za-z0-9._~+/=-]+'\n`;
