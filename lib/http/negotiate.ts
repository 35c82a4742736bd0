// Server-driven content negotiation (RFC 9110 §12.1, §12.5.1): picks the response media type from
// the client's Accept ranges and the endpoint's @Produces list. Knows nothing of writers.

import type { AcceptRange } from './accept';
import { memoize } from './bounded-cache';
import { parseQuality } from './header-tokens';
import {
  isCompatible,
  isConcrete,
  mediaType,
  parseMediaType,
  specificity,
  withoutParams,
  type MediaType,
} from './media-type';

/** The outcome of {@link negotiate}. */
export interface Negotiated {
  /** The concrete response type: a produced entry's parameters without `q`/`qs`, never an Accept range's. */
  readonly type: MediaType;
  /** Index of the `produces` entry that was chosen. */
  readonly index: number;
  /** The client's weight for `type`. */
  readonly q: number;
}

interface Candidate extends Negotiated {
  readonly qs: number;
  readonly score: number;
}

const RANKING_PARAMS = ['q', 'qs'];

/** Whether the range covers `target` (itself possibly a wildcard produced by the server). */
function covers(range: MediaType, target: MediaType): boolean {
  if (range.type === '*') return true;
  return range.type === target.type && (range.subtype === '*' || range.subtype === target.subtype);
}

/**
 * How closely `range` covers `target` (higher is closer), or -1 when it does not. A range parameter that
 * `target` carries with another value excludes the range; one that `target` lacks still matches, below a range
 * whose parameters all agree, so `application/json;charset=utf-8` accepts a server's plain `application/json`.
 */
function rangeScore(range: MediaType, target: MediaType): number {
  if (!covers(range, target)) return -1;
  let exact = true;
  const names = Object.keys(range.params);
  for (const name of names) {
    const value = Object.hasOwn(target.params, name) ? target.params[name] : undefined;
    if (value === undefined) exact = false;
    else if (value.toLowerCase() !== range.params[name].toLowerCase()) return -1;
  }
  return specificity(range) * 100 + (exact ? 50 : 0) + names.length;
}

/**
 * The most specific range of `accept` covering `target`, which gives it its weight (RFC 9110 §12.5.1); the first
 * of equally close ones.
 *
 * @example bestRange(parseAccept('text/*;q=0.5, text/plain'), mediaType('text', 'plain'))?.q // 1
 */
export function bestRange(accept: readonly AcceptRange[], target: MediaType): AcceptRange | undefined {
  let best: AcceptRange | undefined;
  let bestScore = -1;
  for (const range of accept) {
    const score = rangeScore(range, target);
    if (score > bestScore) {
      best = range;
      bestScore = score;
    }
  }
  return best;
}

/**
 * What a produced type serves for a compatible range: a wildcard takes the range's narrower type, but keeps its own
 * parameters. The range's are the client's wishes, not facts of the answer: `text/html;charset=utf-7` copied into
 * `Content-Type` labelled a UTF-8 body UTF-7 (which a browser can be made to run as script).
 */
function narrower(produced: MediaType, range: MediaType): MediaType {
  if (specificity(range) <= specificity(produced)) return produced;
  return Object.freeze({ type: range.type, subtype: range.subtype, params: produced.params });
}

function candidatesFor(accept: readonly AcceptRange[], produced: MediaType, index: number): Candidate[] {
  const qs = parseQuality(produced.params.qs ?? '1') ?? 1;
  const targets = isConcrete(produced)
    ? [produced]
    : accept.filter((range) => range.q > 0 && isCompatible(range, produced)).map((range) => narrower(produced, range));
  const candidates: Candidate[] = [];
  for (const target of targets) {
    const match = bestRange(accept, target);
    if (match === undefined || match.q <= 0) continue;
    const score = rangeScore(match, target);
    candidates.push({ type: withoutParams(target, RANKING_PARAMS), index, q: match.q, qs, score });
  }
  return candidates;
}

function compareCandidates(a: Candidate, b: Candidate): number {
  return b.q - a.q || b.qs - a.qs || b.score - a.score || a.index - b.index;
}

/**
 * A concrete stand-in for a wildcard both sides left open: JAX-RS picks
 * `application/octet-stream` for `*\/*` and `application/*`; we also map `text/*` to `text/plain`
 * (every text reader reads it). Other wildcards have no sensible default.
 */
function concreteFallback(wildcard: MediaType): MediaType | undefined {
  if (wildcard.type === '*' || wildcard.type === 'application') return mediaType('application', 'octet-stream');
  return wildcard.type === 'text' ? mediaType('text', 'plain') : undefined;
}

/**
 * Chooses the response media type. Each `produces` entry acceptable to a range with q>0 is ranked
 * by the client's weight from the most specific range covering it (`text/plain;q=0.5, text/*` gives
 * text/plain 0.5), then the server quality `qs` (default 1), then how specific that range is, then
 * `produces` order. A wildcard entry takes the concrete type of the range it meets, with its own parameters (never the
 * range's, so a range naming a parameter the entry sets otherwise does not admit it). As in JAX-RS,
 * the best concrete candidate wins; only when all are wildcards is a fallback used
 * (`application/octet-stream`, or `text/plain` for `text/*`). Undefined means 406 Not Acceptable.
 * Results are memoised per pair of arrays (by identity), so do not mutate `produces` after use;
 * {@link parseAccept} returns frozen, cached arrays.
 *
 * @example
 * const produces = [mediaType('text', 'plain'), mediaType('application', 'json')];
 * negotiate(parseAccept('text/*;q=0.5, application/json'), produces)?.type // application/json, index 1
 */
export function negotiate(accept: readonly AcceptRange[], produces: readonly MediaType[]): Negotiated | undefined {
  let byProduces = memo.get(accept);
  if (byProduces === undefined) {
    byProduces = new WeakMap();
    memo.set(accept, byProduces);
  }
  let result = byProduces.get(produces);
  if (result === undefined) {
    result = choose(accept, produces) ?? null;
    byProduces.set(produces, result);
  }
  return result ?? undefined;
}

// The same (parsed Accept, @Produces list) pair recurs on every request to an endpoint, and ranking
// costs microseconds; weak keys let entries go with parseAccept's cleared cache or an endpoint.
const memo = new WeakMap<readonly AcceptRange[], WeakMap<readonly MediaType[], Negotiated | null>>();

function choose(accept: readonly AcceptRange[], produces: readonly MediaType[]): Negotiated | undefined {
  const candidates = produces.flatMap((produced, index) => candidatesFor(accept, produced, index));
  candidates.sort(compareCandidates);
  const concrete = candidates.find((candidate) => isConcrete(candidate.type));
  if (concrete !== undefined) return Object.freeze({ type: concrete.type, index: concrete.index, q: concrete.q });
  for (const candidate of candidates) {
    const fallback = concreteFallback(candidate.type);
    const match = fallback && bestRange(accept, fallback);
    if (fallback !== undefined && match !== undefined && match.q > 0) {
      return Object.freeze({ type: fallback, index: candidate.index, q: match.q });
    }
  }
  return undefined;
}

/** One media type as a `produces` list of its own, the same frozen array each time (so `negotiate` memoises it). */
const alone = memoize(100, (type: string): readonly MediaType[] => {
  const parsed = parseMediaType(type);
  return Object.freeze(parsed === undefined ? [] : [parsed]);
});

/**
 * Whether `accept` admits the one media type `type` (what a method without `@Produces` writes its result as).
 *
 * @example
 * admits(parseAccept('text/csv, application/*;q=0.5'), 'application/json'); // true
 * admits(parseAccept('text/csv'), 'application/json');                      // false
 */
export function admits(accept: readonly AcceptRange[], type: string): boolean {
  return negotiate(accept, alone(type)) !== undefined;
}
