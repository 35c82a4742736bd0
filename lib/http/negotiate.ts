// Server-driven content negotiation (RFC 9110 §12.1, §12.5.1): Accept ranges × @Produces. Knows nothing of writers.

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

export interface Negotiated {
  /** Concrete: a produced entry's parameters without `q`/`qs`, never an Accept range's. */
  readonly type: MediaType;
  /** Of the chosen `produces` entry. */
  readonly index: number;
  readonly q: number;
}

interface Candidate extends Negotiated {
  readonly qs: number;
  readonly score: number;
}

const RANKING_PARAMS = ['q', 'qs'];

/** `target` may itself be a wildcard the server produces. */
function covers(range: MediaType, target: MediaType): boolean {
  if (range.type === '*') return true;
  return range.type === target.type && (range.subtype === '*' || range.subtype === target.subtype);
}

/** Higher is closer, -1 none; a parameter `target` lacks matches, lower (`charset=utf-8` takes a plain JSON). */
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

/** The most specific range covering `target` gives its weight (RFC 9110 §12.5.1); the first of equal ones. */
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

/** A wildcard keeps its own parameters: a range's `charset=utf-7` labelled a UTF-8 body UTF-7 (runnable script). */
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

/** For a wildcard both sides left open: JAX-RS's `application/octet-stream`, and `text/plain` for `text/*`. */
function concreteFallback(wildcard: MediaType): MediaType | undefined {
  if (wildcard.type === '*' || wildcard.type === 'application') return mediaType('application', 'octet-stream');
  return wildcard.type === 'text' ? mediaType('text', 'plain') : undefined;
}

/**
 * As in JAX-RS, the best concrete candidate wins, a fallback only when all are wildcards; undefined means 406.
 * Memoised per pair of arrays by identity: do not mutate `produces` after use.
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

// The same pair recurs on every request to an endpoint; weak keys let entries go with parseAccept's cache.
const memo = new WeakMap<readonly AcceptRange[], WeakMap<readonly MediaType[], Negotiated | null>>();

function choose(accept: readonly AcceptRange[], produces: readonly MediaType[]): Negotiated | undefined {
  const candidates = produces.flatMap((produced, index) => candidatesFor(accept, produced, index));
  candidates.sort((a, b) => b.q - a.q || b.qs - a.qs || b.score - a.score || a.index - b.index);
  const concrete = candidates.find((candidate) => isConcrete(candidate.type));
  if (concrete !== undefined) return Object.freeze({ type: concrete.type, index: concrete.index, q: concrete.q });
  for (const candidate of candidates) {
    const fallback = concreteFallback(candidate.type);
    if (fallback === undefined) continue;
    const match = bestRange(accept, fallback);
    if (match !== undefined && match.q > 0)
      return Object.freeze({ type: fallback, index: candidate.index, q: match.q });
  }
  return undefined;
}

/** The same frozen array each time, so `negotiate` memoises it. */
const alone = memoize(100, (type: string): readonly MediaType[] => {
  const parsed = parseMediaType(type);
  return Object.freeze(parsed === undefined ? [] : [parsed]);
});

/** Whether `accept` admits `type` (what a method without `@Produces` writes). */
export function admits(accept: readonly AcceptRange[], type: string): boolean {
  return negotiate(accept, alone(type)) !== undefined;
}
