// The http/ folder's public surface: pure functions for HTTP header grammar, used by routing,
// negotiation, preconditions, compression, files and cookies. No decorators, RxJS or Hono here.

export { parseAccept, type AcceptRange } from './accept';
export { formatCacheControl, type CacheControl } from './cache-control';
export { negotiateEncoding } from './content-coding';
export { NewCookie, parseCookieHeader, type NewCookieOptions } from './cookies';
export { EntityTag, parseEntityTagList } from './entity-tag';
export { isToken, quote, quoteIfNeeded, splitHeaderList } from './header-tokens';
export { formatHttpDate, parseHttpDate, truncateToSeconds } from './http-date';
export { formatLink, parseLinkHeader, type WebLink } from './link-header';
export {
  formatMediaType,
  isCompatible,
  isConcrete,
  isJsonMediaType,
  matchesContentType,
  mediaType,
  parseMediaType,
  rankConsumes,
  specificity,
  withoutParams,
  type MediaType,
} from './media-type';
export { negotiate, type Negotiated } from './negotiate';
export {
  evaluatePreconditions,
  type ConditionalRequest,
  type CurrentRepresentation,
  type PreconditionFailure,
} from './preconditions';
export { formatContentRange, parseRange, type ByteRange } from './range';
export { parseSize } from './size';
