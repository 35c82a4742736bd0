// Narrows templated routes by one literal segment and the number of segments; knows nothing of regexes.

export interface IndexedTemplate {
  readonly template: {
    readonly normalized: string;
    readonly slashCount: number;
    readonly spansSegments: boolean;
  };
}

interface Bucket<G> {
  /** For paths with a trailing slash. */
  readonly all: readonly G[];
  /** By the path's `/` count; the last entry serves every larger count. */
  readonly bySlashCount: readonly (readonly G[])[];
}

const SLASH = 0x2f;

/**
 * Buckets templates by their literal segment at the depth giving the fewest candidates at worst (`users` of
 * `/api/users/{id}`, not `api`); one with a variable there is in every bucket. Lists keep precedence order.
 */
export class SegmentIndex<G extends IndexedTemplate> {
  readonly #depth: number;
  readonly #buckets = new Map<string, Bucket<G>>();
  readonly #unkeyed: Bucket<G>;

  constructor(sorted: readonly G[]) {
    const prefixes = sorted.map((entry) => literalSegments(entry.template.normalized));
    this.#depth = chooseDepth(prefixes);
    const keys = prefixes.map((prefix) => prefix[this.#depth]);
    this.#unkeyed = bucketOf(sorted.filter((_, i) => keys[i] === undefined));
    for (const key of new Set(keys)) {
      // Filtering `sorted` keeps precedence order across a bucket's own templates and the unkeyed ones.
      if (key !== undefined)
        this.#buckets.set(key, bucketOf(sorted.filter((_, i) => keys[i] === key || keys[i] === undefined)));
    }
  }

  candidates(path: string): readonly G[] {
    const depth = this.#depth;
    let slashes = 0;
    let start = -1;
    let end = path.length;
    // indexOf is native and beats a charCodeAt loop on typical 20–60 character paths.
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
      if (slashes === depth) start = slash + 1;
      else if (slashes === depth + 1) end = slash;
      slashes++;
    }
    const bucket = (start === -1 ? undefined : this.#buckets.get(path.slice(start, end))) ?? this.#unkeyed;
    // A trailing slash may be the template's optional one or a literal one before an empty variable: take all.
    if (path.charCodeAt(path.length - 1) === SLASH) return bucket.all;
    const lists = bucket.bySlashCount;
    return lists[slashes < lists.length ? slashes : lists.length - 1] as readonly G[];
  }
}

function bucketOf<G extends IndexedTemplate>(all: readonly G[]): Bucket<G> {
  const most = Math.max(0, ...all.map((entry) => entry.template.slashCount));
  const bySlashCount = Array.from({ length: most + 2 }, (_, count) =>
    all.filter(({ template }) =>
      template.spansSegments ? template.slashCount <= count : template.slashCount === count,
    ),
  );
  return { all, bySlashCount };
}

/** Leading segments without a variable (a regex may contain `/`, so stop at `{`). */
function literalSegments(normalized: string): string[] {
  const brace = normalized.indexOf('{');
  if (brace === -1) return normalized.slice(1).split('/');
  // The segment holding the variable is not literal.
  return normalized.slice(1, brace).split('/').slice(0, -1);
}

/** Worst case: templates without a key there, plus the biggest bucket. */
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
