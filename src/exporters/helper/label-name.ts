// Attribute names as Prometheus and Loki label names, by the rule both apply to OTLP
// (prometheus/otlptranslator NormalizeLabel, which Loki 3's OTLP ingest also uses): every
// character outside [a-zA-Z0-9_] becomes "_"; a name starting with a digit gets "key_" in front,
// one starting with a single "_" gets "key" (a leading "__" stays: Prometheus reserves it).

const VALID = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const INVALID_CHARACTER = /[^a-zA-Z0-9_]/gu;

/** Names seen are few and come again in every batch: each is worked out once. Bounded, as names come from clients. */
const cache = new Map<string, string>();
const CACHE_LIMIT = 10_000;

export function labelName(name: string): string {
  if (VALID.test(name) && !(name.startsWith('_') && !name.startsWith('__'))) return name;
  const known = cache.get(name);
  if (known !== undefined) return known;
  let label = name.replace(INVALID_CHARACTER, '_');
  if (label !== '') {
    const first = label.charCodeAt(0);
    if (first >= 48 && first <= 57) label = `key_${label}`;
    else if (label.startsWith('_') && !label.startsWith('__')) label = `key${label}`;
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(name, label);
  return label;
}
