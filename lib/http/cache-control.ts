// The Cache-Control response header (RFC 9111 §5.2.2): formatting response directives in a
// stable order. Knows nothing of @Cache / @NoCache, which build a CacheControl.

import { isToken } from './header-tokens';

/** Response cache directives; a field-name list restricts `no-cache` / `private` to those fields. */
export interface CacheControl {
  readonly noCache?: boolean | readonly string[];
  readonly noStore?: boolean;
  readonly noTransform?: boolean;
  readonly mustRevalidate?: boolean;
  readonly proxyRevalidate?: boolean;
  /** Seconds (RFC 9111 §5.2.2.1). */
  readonly maxAge?: number;
  /** Seconds, for shared caches (RFC 9111 §5.2.2.10). */
  readonly sMaxAge?: number;
  readonly private?: boolean | readonly string[];
  readonly public?: boolean;
  /** RFC 8246. */
  readonly immutable?: boolean;
}

/**
 * Formats directives as `no-cache, no-store, no-transform, must-revalidate, proxy-revalidate,
 * max-age=N, s-maxage=N, private, public, immutable` (those present, in that order, so the header
 * is stable). Field lists use the quoted form `no-cache="a, b"` (RFC 9111 §5.2.2.4); an empty list
 * means the unqualified directive. Throws a RangeError for a negative or fractional age and a
 * TypeError for a field name that is not a token.
 *
 * @example formatCacheControl({ noTransform: true, maxAge: 42, private: true }) // 'no-transform, max-age=42, private'
 */
export function formatCacheControl(cc: CacheControl): string {
  const directives: string[] = [];
  addFields(directives, 'no-cache', cc.noCache);
  if (cc.noStore === true) directives.push('no-store');
  if (cc.noTransform === true) directives.push('no-transform');
  if (cc.mustRevalidate === true) directives.push('must-revalidate');
  if (cc.proxyRevalidate === true) directives.push('proxy-revalidate');
  addSeconds(directives, 'max-age', cc.maxAge);
  addSeconds(directives, 's-maxage', cc.sMaxAge);
  addFields(directives, 'private', cc.private);
  if (cc.public === true) directives.push('public');
  if (cc.immutable === true) directives.push('immutable');
  return directives.join(', ');
}

function addFields(directives: string[], name: string, value: boolean | readonly string[] | undefined): void {
  if (value === undefined || value === false) return;
  if (value === true || value.length === 0) {
    directives.push(name);
    return;
  }
  const invalid = value.find((field) => !isToken(field));
  if (invalid !== undefined) throw new TypeError(`Invalid field name in ${name}: ${JSON.stringify(invalid)}`);
  directives.push(`${name}="${value.join(', ')}"`);
}

/** delta-seconds is a non-negative integer (RFC 9111 §1.2.2). */
function addSeconds(directives: string[], name: string, seconds: number | undefined): void {
  if (seconds === undefined) return;
  if (!Number.isSafeInteger(seconds) || seconds < 0) {
    throw new RangeError(`${name} must be a non-negative integer of seconds, got ${seconds}`);
  }
  directives.push(`${name}=${seconds}`);
}
