// Matching a request's Content-Type against an endpoint's @Consumes list, and ranking the match
// so the router can choose between methods that differ only in what they consume.

import { isCompatible, specificity, type MediaType } from './media-type';

/**
 * How well `contentType` fits `consumes`: the specificity of the most specific compatible entry
 * (2 for `application/json`, 1 for `application/*`, 0 for `*\/*`), or -1 when none fits. Parameters
 * are ignored, as in JAX-RS. Higher wins when several methods could take the request.
 *
 * @example rankConsumes(parseMediaType('application/json')!, [parseMediaType('application/*')!]) // 1
 */
export function rankConsumes(contentType: MediaType, consumes: readonly MediaType[]): number {
  let best = -1;
  for (const entry of consumes) {
    if (isCompatible(contentType, entry)) best = Math.max(best, specificity(entry));
  }
  return best;
}

/**
 * Whether an endpoint consuming `consumes` accepts a body of `contentType` (otherwise 415).
 *
 * @example matchesContentType(parseMediaType('text/plain;charset=UTF-8')!, [parseMediaType('text/*')!]) // true
 */
export function matchesContentType(contentType: MediaType, consumes: readonly MediaType[]): boolean {
  return rankConsumes(contentType, consumes) >= 0;
}
