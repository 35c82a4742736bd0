// The Cache-Control response header (RFC 9111 §5.2.2). Knows nothing of @Cache / @NoCache, which build one.

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

/** In a fixed order, so the header is stable; a field list as `no-cache="a, b"` (RFC 9111 §5.2.2.4). */
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
  const invalid = value === true ? undefined : value.find((field) => !isToken(field));
  if (invalid !== undefined) throw new TypeError(`Invalid field name in ${name}: ${JSON.stringify(invalid)}`);
  directives.push(value === true || value.length === 0 ? name : `${name}="${value.join(', ')}"`);
}

/** delta-seconds is a non-negative integer (RFC 9111 §1.2.2). */
function addSeconds(directives: string[], name: string, seconds: number | undefined): void {
  if (seconds === undefined) return;
  if (!Number.isSafeInteger(seconds) || seconds < 0) {
    throw new RangeError(`${name} must be a non-negative integer of seconds, got ${seconds}`);
  }
  directives.push(`${name}=${seconds}`);
}
