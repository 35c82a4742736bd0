// Narrows templated routes to those that can match a path, by the first literal segment where templates differ; knows nothing of regexes.

/** Templates as the index sees them: their normalised form (variables as `{…}`), already in precedence order. */
export interface IndexedTemplate {
  readonly template: { readonly normalized: string };
}

const SLASH = 0x2f;
const OPEN_BRACE = 0x7b;

/**
 * Buckets templates by their literal segment at one depth, chosen so that a path gets the fewest candidates at
 * worst (so `/api/users/{id}` and `/api/orders/{id}` split on `users`/`orders`, not on `api`). Templates with a
 * variable at or before that depth are candidates for every path. Each bucket keeps precedence order.
 *
 * @example
 * const index = new SegmentIndex(groupsInPrecedenceOrder);
 * index.candidates('/api/users/7'); // the /api/users/... groups and the ones starting with a variable
 */
export class SegmentIndex<G extends IndexedTemplate> {
  readonly #depth: number;
  readonly #buckets = new Map<string, readonly G[]>();
  readonly #unkeyed: readonly G[];

  constructor(sorted: readonly G[]) {
    const prefixes = sorted.map((entry) => literalSegments(entry.template.normalized));
    this.#depth = chooseDepth(prefixes);
    const keyed = new Map<string, G[]>();
    const unkeyed: G[] = [];
    sorted.forEach((entry, i) => {
      const key = (prefixes[i] as string[])[this.#depth];
      if (key === undefined) unkeyed.push(entry);
      else keyed.set(key, [...(keyed.get(key) ?? []), entry]);
    });
    this.#unkeyed = unkeyed;
    // Filtering `sorted` keeps precedence order across a bucket's own templates and the unkeyed ones.
    for (const [key, own] of keyed) {
      const members = new Set([...own, ...unkeyed]);
      this.#buckets.set(key, sorted.filter((entry) => members.has(entry)));
    }
  }

  /** Templates that may match `path`, in precedence order. */
  candidates(path: string): readonly G[] {
    const key = segmentAt(path, this.#depth);
    return (key === undefined ? undefined : this.#buckets.get(key)) ?? this.#unkeyed;
  }
}

/** The leading segments of a normalised template that hold no variable (a regex may contain `/`, so stop at `{`). */
function literalSegments(normalized: string): string[] {
  const segments: string[] = [];
  let start = 1;
  for (let i = 1; i < normalized.length; i++) {
    const code = normalized.charCodeAt(i);
    if (code === OPEN_BRACE) return segments;
    if (code === SLASH) {
      segments.push(normalized.slice(start, i));
      start = i + 1;
    }
  }
  segments.push(normalized.slice(start));
  return segments;
}

/** The depth whose worst case (templates without a key there, plus the biggest bucket) is smallest. */
function chooseDepth(prefixes: readonly string[][]): number {
  const deepest = Math.max(0, ...prefixes.map((prefix) => prefix.length));
  let best = 0;
  let bestCost = Infinity;
  for (let depth = 0; depth < deepest; depth++) {
    const sizes = new Map<string, number>();
    let unkeyed = 0;
    for (const prefix of prefixes) {
      const key = prefix[depth];
      if (key === undefined) unkeyed++;
      else sizes.set(key, (sizes.get(key) ?? 0) + 1);
    }
    const cost = unkeyed + Math.max(0, ...sizes.values());
    if (cost < bestCost) [best, bestCost] = [depth, cost];
  }
  return best;
}

/** Segment `depth` (0 = first) of `path`, or `undefined` when the path is shorter. */
function segmentAt(path: string, depth: number): string | undefined {
  let start = 1;
  for (let level = 0; level < depth; level++) {
    const slash = path.indexOf('/', start);
    if (slash === -1) return undefined;
    start = slash + 1;
  }
  const end = path.indexOf('/', start);
  return end === -1 ? path.slice(start) : path.slice(start, end);
}
