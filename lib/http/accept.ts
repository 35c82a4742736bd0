// The Accept request header (RFC 9110 §12.5.1); choosing from it is negotiate.ts's concern.

import { memoize } from './bounded-cache';
import { parseQuality, splitHeaderList } from './header-tokens';
import { formatMediaType, parseMediaType, type MediaType } from './media-type';

/** A media range with its weight (one of `q=0` is kept: it vetoes types); `q` is not kept in `params`. */
export interface AcceptRange extends MediaType {
  readonly q: number;
}

const ANYTHING: readonly AcceptRange[] = Object.freeze([
  Object.freeze({ type: '*', subtype: '*', params: Object.freeze({}), q: 1 }),
]);

/** What follows `q` was RFC 7231's accept-ext, dropped (RFC 9110 §12.5.1); Java's bare `*` reads as `*\/*`. */
function parseRange(member: string): AcceptRange | undefined {
  const m = parseMediaType(member.startsWith('*') && !member.startsWith('*/') ? `*/${member}` : member);
  if (m === undefined) return undefined;
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  let q = 1;
  for (const [name, value] of Object.entries(m.params)) {
    if (name === 'q') {
      const quality = parseQuality(value);
      if (quality === undefined) return undefined;
      q = quality;
      break;
    }
    params[name] = value;
  }
  return Object.freeze({ type: m.type, subtype: m.subtype, params: Object.freeze(params), q });
}

/** Ranking a wildcard `@Produces` costs the ranges squared: 3,000 `*\/*` in 16 KB took a second of CPU. */
export const MAX_ACCEPT_RANGES = 100;

function parseUncached(header: string): readonly AcceptRange[] {
  const ranges: AcceptRange[] = [];
  const seen = new Set<string>();
  for (const member of splitHeaderList(header)) {
    const range = parseRange(member);
    if (range === undefined) continue;
    // Weight aside, a later range of the same text never decides anything (see `bestRange`); quoted, as a value may
    // hold `;` (`a="x;b=y"` is not `a=x;b=y`).
    const key = formatMediaType(range);
    if (seen.has(key)) continue;
    seen.add(key);
    ranges.push(range);
    if (ranges.length === MAX_ACCEPT_RANGES) break;
  }
  return ranges.length === 0 ? ANYTHING : Object.freeze(ranges);
}

const parseCached = memoize(500, parseUncached);

/** Lenient as the newer Java framework: malformed members skipped, none valid reads `*\/*`. Cached and frozen. */
export function parseAccept(header: string | null | undefined): readonly AcceptRange[] {
  // Programmatic clients' usual header, answered without hashing it for the cache.
  if (header === null || header === undefined || header === '*/*') return ANYTHING;
  return parseCached(header);
}
