#!/usr/bin/env bash
# One request to each ingest endpoint with curl. Set the key otelgate printed on first start:
#   OTELGATE_KEY=otg_... bash examples/curl.sh        (OTELGATE_URL defaults to http://localhost:4318)
set -euo pipefail
url=${OTELGATE_URL:-http://localhost:4318}
key=${OTELGATE_KEY:?set OTELGATE_KEY to an API key}
now=$(date +%s)000000000

# Simple JSON logs: one object or an array of them. Answers 202 {"accepted": N, "skipped": M}.
curl -sS -X POST "$url/api/v1/ingest" -H "Authorization: Bearer $key" \
  -d '[{"message": "user signed in", "level": "info", "service": "web", "context": {"user": {"id": 42}}},
       {"message": "payment failed", "level": "error", "service": "web", "trace_id": "5b8efff798038103d269b633813fc60c"}]'
echo

# OTLP/HTTP JSON logs. Answers 200 {} (or a partialSuccess saying what was skipped).
curl -sS -X POST "$url/api/v1/logs" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
  -d '{"resourceLogs": [{"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "web"}}]},
       "scopeLogs": [{"logRecords": [{"timeUnixNano": "'"$now"'", "severityNumber": 9, "severityText": "INFO",
       "body": {"stringValue": "hello from curl"}}]}]}]}'
echo

# OTLP/HTTP JSON traces, gzip-compressed (X-Service-Key works where Authorization cannot be set).
echo '{"resourceSpans": [{"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "web"}}]},
  "scopeSpans": [{"spans": [{"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174",
  "name": "GET /", "kind": 2, "startTimeUnixNano": "'"$now"'", "endTimeUnixNano": "'"$now"'"}]}]}]}' |
  gzip | curl -sS -X POST "$url/api/v1/traces" -H "X-Service-Key: $key" -H 'Content-Type: application/json' \
  -H 'Content-Encoding: gzip' --data-binary @-
echo

# OTLP/HTTP JSON metrics: one stored row per data point.
curl -sS -X POST "$url/api/v1/metrics" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
  -d '{"resourceMetrics": [{"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "web"}}]},
       "scopeMetrics": [{"metrics": [{"name": "http.requests", "unit": "1",
       "sum": {"aggregationTemporality": 2, "isMonotonic": true,
       "dataPoints": [{"timeUnixNano": "'"$now"'", "asInt": "7", "attributes": [{"key": "route", "value": {"stringValue": "/"}}]}]}}]}]}]}'
echo
