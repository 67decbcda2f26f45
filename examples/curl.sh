#!/usr/bin/env bash
# The README's four requests, one to each ingest endpoint, with curl; each answer on a line of its
# own. Set the key otelgate printed on first start:
#   OTELGATE_KEY=otg_... bash examples/curl.sh        (OTELGATE_URL defaults to http://localhost:4318)
set -euo pipefail
url=${OTELGATE_URL:-http://localhost:4318}
key=${OTELGATE_KEY:?set OTELGATE_KEY to an API key}
# OTLP times are nanoseconds since the epoch: the seconds of now, then nine digits.
now=$(date +%s)

# Simple JSON logs: one object or an array. Answers 202 {"accepted":1,"skipped":0}.
curl -sS -X POST "$url/api/v1/ingest" -H "Authorization: Bearer $key" \
  -d '{"message": "user signed in", "level": "info", "service": "web", "context": {"user": {"id": 42}}}'
echo

# OTLP/HTTP JSON logs. Answers 200 {} (or a partialSuccess naming what was skipped).
curl -sS -X POST "$url/api/v1/logs" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
  -d '{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"severityNumber":9,"body":{"stringValue":"hello"}}]}]}]}'
echo

# OTLP/HTTP JSON traces, gzip-compressed (X-Service-Key works where Authorization cannot be set):
# a span of half a second that starts now.
echo '{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"5b8efff798038103d269b633813fc60c",
  "spanId":"eee19b7ec3c1b174","name":"GET /","startTimeUnixNano":"'$now'000000000",
  "endTimeUnixNano":"'$now'500000000"}]}]}]}' | gzip |
  curl -sS -X POST "$url/api/v1/traces" -H "X-Service-Key: $key" -H 'Content-Type: application/json' \
  -H 'Content-Encoding: gzip' --data-binary @-
echo

# OTLP/HTTP JSON metrics: one stored row per data point, here one point taken now.
curl -sS -X POST "$url/api/v1/metrics" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
  -d '{"resourceMetrics":[{"scopeMetrics":[{"metrics":[{"name":"http.requests","sum":{"aggregationTemporality":2,
  "isMonotonic":true,"dataPoints":[{"timeUnixNano":"'$now'000000000","asInt":"7"}]}}]}]}]}'
echo
