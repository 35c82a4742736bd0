// The Accept request header (RFC 9110 §12.5.1): media ranges with their weights. Choosing a
// response type from them is negotiate.ts's concern.

import { memoize } from './bounded-cache';
import { parseQuality, splitHeaderList } from './header-tokens';
import { parseMediaType, type MediaType } from './media-type';

/** A media range the client accepts, with its weight; `q` is not kept in `params`. */
export interface AcceptRange extends MediaType {
  readonly q: number;
}

const ANYTHING: readonly AcceptRange[] = Object.freeze([
  Object.freeze({ type: '*', subtype: '*', params: Object.freeze({}), q: 1 }),
]);

/**
 * Reads one `media-range [ weight ]`. Everything after `q` is dropped: it was the obsolete
 * accept-ext of RFC 7231 and no longer part of the media range (RFC 9110 §12.5.1). A bare `*`,
 * as Java's default Accept sends, is read as `*\/*`.
 */
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

/**
 * Distinct ranges read from one header. Ranking an endpoint's wildcard `@Produces` against the ranges costs up to
 * their number squared: Node's 16 KB header block holds 3,000 `*\/*`, about a second of CPU for one request.
 * Browsers send fewer than ten.
 */
export const MAX_ACCEPT_RANGES = 100;

/** A range's identity, weight aside: a later range with the same one never decides anything (see `bestRange`). */
function rangeKey(range: AcceptRange): string {
  let key = `${range.type}/${range.subtype}`;
  for (const [name, value] of Object.entries(range.params)) key += `;${name}=${value}`;
  return key;
}

function parseUncached(header: string): readonly AcceptRange[] {
  const ranges: AcceptRange[] = [];
  const seen = new Set<string>();
  for (const member of splitHeaderList(header)) {
    const range = parseRange(member);
    if (range === undefined) continue;
    const key = rangeKey(range);
    if (seen.has(key)) continue;
    seen.add(key);
    ranges.push(range);
    if (ranges.length === MAX_ACCEPT_RANGES) break;
  }
  return ranges.length === 0 ? ANYTHING : Object.freeze(ranges);
}

const parseCached = memoize(500, parseUncached);

/**
 * Parses an Accept header into its media ranges, in header order. A deliberate leniency, as the
 * newer Java framework behaves: a missing header, an empty one or one with no valid member counts
 * as `*\/*` (q=1), and malformed members (`/`, `blah`, `q=2`) are skipped. A range with q=0 means
 * "not acceptable" and is kept so that it can veto types. A range repeated (type and parameters alike) is kept once,
 * at its first place, and only the first {@link MAX_ACCEPT_RANGES} distinct ranges are read. Results are cached and
 * frozen.
 *
 * @example parseAccept('text/html, application/json;q=0.8') // [text/html q=1, application/json q=0.8]
 */
export function parseAccept(header: string | null | undefined): readonly AcceptRange[] {
  // The usual header of programmatic clients, answered without hashing it for the cache.
  if (header === null || header === undefined || header === '*/*') return ANYTHING;
  return parseCached(header);
}
