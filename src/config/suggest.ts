// "Did you mean" hints for misspelt keys, types and component names.

function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0] as number;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j] as number;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      previous[j] = Math.min(above + 1, (previous[j - 1] as number) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[b.length] as number;
}

/** The closest candidate within a distance that still reads as a typo, if any. */
function closest(word: string, candidates: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** ` Did you mean "x"?` or, failing that, the list of valid choices. */
export function hint(word: string, candidates: readonly string[], noun: string): string {
  const guess = closest(word, candidates);
  if (guess !== undefined) return ` Did you mean "${guess}"?`;
  if (candidates.length === 0) return '';
  return ` Valid ${noun}: ${candidates.join(', ')}.`;
}
