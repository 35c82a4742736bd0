/** @RateLimit: how much one client may ask of an endpoint; it only records metadata. */
import { metaKey } from '../metadata/store';
import { memberTag, tagFactory, type ClassOrMethodDecorator } from './decorator-types';

export interface RateLimitOptions {
  /** Requests one client may make per `window`. */
  readonly requests?: number;
  /** The window `requests` are counted in: milliseconds, or a duration such as `'10s'` or `'1m'` (whole seconds). */
  readonly window?: number | string;
  /** Streams one client may hold open at once. */
  readonly streams?: number;
}

export const RATE_LIMIT = metaKey<RateLimitOptions>('rate-limit');

/**
 * Limits each client (its principal when authenticated, else its address) on this method, or on every method of the
 * class (one count per method). Past the limit: 429 with `Retry-After` and the `RateLimit` headers.
 *
 * @example
 * \@GET @Path('search') @RateLimit({ requests: 100, window: '10s' })
 * search(\@RestQuery() q: string) { ... }
 */
export const RateLimit: (options: RateLimitOptions) => ClassOrMethodDecorator = tagFactory(memberTag, RATE_LIMIT);
