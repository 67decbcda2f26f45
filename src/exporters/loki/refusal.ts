// Why Loki refused a push for good, from its message: the reason names of Loki's own
// loki_discarded_samples_total, so that otelgate's count and Loki's can be read side by side.
// Loki answers 400 for entries it will never take (too old, out of order, too long, bad labels)
// and stores the rest of the push; its message names each refused entry's reason.

const REASONS: readonly (readonly [string, string])[] = [
  ['entry out of order', 'out_of_order'],
  ['entry too far behind', 'too_far_behind'],
  ['timestamp too old', 'greater_than_max_sample_age'],
  ['timestamp too new', 'too_far_in_future'],
  ['max entry size', 'line_too_long'],
  ['at least one label pair is required', 'missing_labels'],
  ['label name too long', 'label_name_too_long'],
  ['label value too long', 'label_value_too_long'],
  ['duplicate label name', 'duplicate_label_names'],
  ['label names; limit', 'max_label_names_per_series'],
  ['structured metadata, but this feature is disallowed', 'disallowed_structured_metadata'],
  ['structured metadata too large', 'structured_metadata_too_large'],
  ['too many structured metadata labels', 'structured_metadata_too_many'],
  ['maximum active stream limit', 'stream_limit'],
  ['error parsing labels', 'invalid_labels'],
];

/** The reason of the first refusal Loki's message names; `other` for a message it does not know, or none. */
export function refusalReason(message: string | undefined): string {
  if (message === undefined) return 'other';
  const text = message.toLowerCase();
  let first = 'other';
  let at = Number.POSITIVE_INFINITY;
  for (const [words, reason] of REASONS) {
    const found = text.indexOf(words);
    if (found !== -1 && found < at) {
      first = reason;
      at = found;
    }
  }
  return first;
}
