// Suggests the known key a mistyped one was probably meant to be (Levenshtein distance).

/**
 * The candidate closest to `key` by edit distance, if close enough to be a plausible typo (at most a
 * quarter of the key's length, and at least 2 edits allowed); `undefined` otherwise.
 *
 * @example
 * suggestKey('framework.http.prot', ['framework.http.port', 'framework.http.host']); // 'framework.http.port'
 */
export function suggestKey(key: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(2, Math.floor(key.length / 4));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = editDistance(key, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance with two rolling rows: O(a·b) time, O(b) memory. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
