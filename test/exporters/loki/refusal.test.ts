// Loki's messages for entries it refuses for good, read as the reasons of its own
// loki_discarded_samples_total.
import { describe, expect, it } from 'vitest';
import { refusalReason } from '../../../src/exporters/loki/refusal.js';

describe('refusalReason', () => {
  it.each([
    ["entry with timestamp 2026-11-23 10:00:00 +0000 UTC ignored, reason: 'entry out of order' for stream: {app=\"a\"},\ntotal ignored: 1 out of 3", 'out_of_order'],
    ["entry with timestamp 2026-11-23 10:00:00 +0000 UTC ignored, reason: 'entry too far behind, entry timestamp is: 2026-11-23T10:00:00Z, oldest acceptable timestamp is: 2026-11-23T11:00:00Z',\nuser 'shop', total ignored: 1 out of 1 for stream: {app=\"a\"}", 'too_far_behind'],
    ["entry for stream '{app=\"a\"}' has timestamp too old: 2020-01-01T00:00:00Z, oldest acceptable timestamp is: 2026-11-16T00:00:00Z", 'greater_than_max_sample_age'],
    ["entry for stream '{app=\"a\"}' has timestamp too new: 2030-01-01T00:00:00Z", 'too_far_in_future'],
    ["Max entry size '262144' bytes exceeded for stream '{app=\"a\"}' while adding an entry with length '300000' bytes", 'line_too_long'],
    ['error at least one label pair is required per stream', 'missing_labels'],
    ["Error parsing labels '{a.b=\"1\"}' with error: parse error", 'invalid_labels'],
    ["stream '{app=\"a\"}' has label value too long: 'xxx'", 'label_value_too_long'],
    ["stream '{app=\"a\"}' has label name too long: 'xxx'", 'label_name_too_long'],
    ["stream '{app=\"a\"}' has duplicate label name: 'app'", 'duplicate_label_names'],
    ["entry for stream '{app=\"a\"}' has 16 label names; limit 15", 'max_label_names_per_series'],
    ["stream '{app=\"a\"}' includes structured metadata, but this feature is disallowed. Please see `limits_config.allow_structured_metadata`", 'disallowed_structured_metadata'],
    ["stream '{app=\"a\"}' has structured metadata too large: '70000' bytes, limit: '65536' bytes.", 'structured_metadata_too_large'],
    ["stream '{app=\"a\"}' has too many structured metadata labels: '200', limit: '128'.", 'structured_metadata_too_many'],
    ['something else entirely', 'other'],
  ])('%s → %s', (message, reason) => {
    expect(refusalReason(message)).toBe(reason);
  });

  it('names the first reason of a message that has several', () => {
    expect(refusalReason("entry for stream '{a=\"1\"}' has timestamp too new: x\nentry for stream '{a=\"1\"}' has timestamp too old: y")).toBe('too_far_in_future');
  });

  it('is other without a message', () => {
    expect(refusalReason(undefined)).toBe('other');
  });
});
