// Conditional requests (RFC 9110 §13.2.2): evaluates If-Match, If-Unmodified-Since, If-None-Match
// and If-Modified-Since, in that order, against the current validators, and If-Range (§13.1.5). Knows no resources.

import { acceptsCoding } from './content-coding';
import { EntityTag, parseEntityTagList, VARIANT_CODINGS, variantTag } from './entity-tag';
import { formatHttpDate, parseHttpDate, truncateToSeconds } from './http-date';

/** The validators of the selected representation; `undefined` as a whole means there is none. */
export interface CurrentRepresentation {
  readonly lastModified?: Date;
  readonly etag?: EntityTag;
}

/** The response that ends the request early: 304 Not Modified or 412 Precondition Failed. */
export interface PreconditionFailure {
  readonly status: 304 | 412;
  /** `ETag` and `Last-Modified` of the current representation, when known. */
  readonly headers: Record<string, string>;
}

/** The request fields the evaluation reads. */
export interface ConditionalRequest {
  readonly method: string;
  readonly headers: Headers;
}

/**
 * Evaluates the request's preconditions (RFC 9110 §13.2.2) and returns the failure response, or
 * undefined when the method may proceed. `current` undefined means no current representation, so
 * `If-Match: *` fails and `If-None-Match: *` passes. Every failure carries `ETag` and
 * `Last-Modified` when known; Last-Modified is compared at one-second resolution. `now` decides
 * which If-Modified-Since dates lie in the future (and are ignored).
 *
 * `current.etag` is the tag of the identity representation; the tag of an encoded variant (`"v1-gzip"`, see
 * {@link variantTag}) names the same state, so If-Match takes it, and If-None-Match takes it while the request's
 * `Accept-Encoding` still takes that coding — the 304 then carries the variant's tag, the copy the client holds.
 *
 * @example
 * evaluatePreconditions(new Request('http://x/', { headers: { 'If-None-Match': '"v1"' } }), { etag: new EntityTag('v1') })
 * // { status: 304, headers: { ETag: '"v1"' } }
 */
export function evaluatePreconditions(
  request: ConditionalRequest,
  current: CurrentRepresentation | undefined,
  now: Date = new Date(),
): PreconditionFailure | undefined {
  const { headers, method } = request;
  const ifMatch = headers.get('if-match');
  const ifNoneMatch = headers.get('if-none-match');
  const safe = method === 'GET' || method === 'HEAD';
  const lastModified = current?.lastModified && truncateToSeconds(current.lastModified);
  // Step 1, or step 2 only without If-Match (RFC 9110 §13.2.2).
  if (ifMatch !== null) {
    if (!ifMatchPasses(ifMatch, current)) return failure(412, current);
  } else if (!unmodifiedSincePasses(headers.get('if-unmodified-since'), lastModified)) {
    return failure(412, current);
  }
  // Step 3, or step 4 only without If-None-Match and only for GET/HEAD.
  if (ifNoneMatch !== null) {
    const matched = noneMatchHit(ifNoneMatch, current, headers.get('accept-encoding'));
    if (matched !== undefined) return failure(safe ? 304 : 412, current, safe ? matched : undefined);
  } else if (safe && !modifiedSincePasses(headers.get('if-modified-since'), lastModified, now)) {
    return failure(304, current);
  }
  return undefined;
}

/** If-Match (§13.1.1): `*` needs a current representation; a list needs a strong match, of any variant. */
function ifMatchPasses(header: string, current: CurrentRepresentation | undefined): boolean {
  const tags = parseEntityTagList(header);
  if (tags === '*') return current !== undefined;
  const etag = current?.etag;
  if (etag === undefined) return false;
  const variants = [etag, ...VARIANT_CODINGS.map((coding) => variantTag(etag, coding))];
  return tags.some((tag) => variants.some((variant) => tag.strongEquals(variant)));
}

/**
 * If-None-Match (§13.1.2): what a weak match found — the current tag, the tag of an encoded variant whose coding
 * the client still takes, or `true` for `*` when a representation exists; undefined when the method may proceed.
 */
function noneMatchHit(
  header: string,
  current: CurrentRepresentation | undefined,
  acceptEncoding: string | null,
): EntityTag | true | undefined {
  const tags = parseEntityTagList(header);
  if (tags === '*') return current === undefined ? undefined : true;
  const etag = current?.etag;
  if (etag === undefined) return undefined;
  for (const tag of tags) {
    if (tag.weakEquals(etag)) return etag;
    const coding = VARIANT_CODINGS.find((name) => tag.value === `${etag.value}-${name}`);
    if (coding !== undefined && acceptsCoding(acceptEncoding, coding)) return variantTag(etag, coding);
  }
  return undefined;
}

/**
 * Whether a `Range` may be honoured under `If-Range` (RFC 9110 §13.1.5): always without one; for an entity tag, only
 * on a strong match with the current tag — the identity representation's, as a range is never cut from encoded
 * bytes, so an encoded variant's tag never matches; for a date, only when it equals the Last-Modified.
 *
 * @example ifRangeMatches('"v1-gzip"', { etag: new EntityTag('v1') }) // false: the whole representation is sent
 */
export function ifRangeMatches(header: string | null, current: CurrentRepresentation | undefined): boolean {
  if (header === null) return true;
  const text = header.trim();
  if (text.startsWith('"') || text.startsWith('W/')) {
    let tag: EntityTag;
    try {
      tag = EntityTag.parse(text);
    } catch {
      return false;
    }
    return current?.etag !== undefined && tag.strongEquals(current.etag);
  }
  const date = parseHttpDate(text);
  const lastModified = current?.lastModified && truncateToSeconds(current.lastModified);
  return date !== undefined && lastModified !== undefined && date.getTime() === lastModified.getTime();
}

/** If-Unmodified-Since (§13.1.4): ignored when invalid or when there is no modification date. */
function unmodifiedSincePasses(header: string | null, lastModified: Date | undefined): boolean {
  const since = header === null ? undefined : parseHttpDate(header);
  return since === undefined || lastModified === undefined || lastModified <= since;
}

/** If-Modified-Since (§13.1.3): ignored when invalid, in the future, or without a modification date. */
function modifiedSincePasses(header: string | null, lastModified: Date | undefined, now: Date): boolean {
  const since = header === null ? undefined : parseHttpDate(header, now);
  if (since === undefined || lastModified === undefined || since > now) return true;
  return lastModified > since;
}

function failure(
  status: 304 | 412,
  current: CurrentRepresentation | undefined,
  matched?: EntityTag | true,
): PreconditionFailure {
  const headers: Record<string, string> = {};
  const etag = matched instanceof EntityTag ? matched : current?.etag;
  if (etag !== undefined) headers.ETag = etag.toString();
  if (current?.lastModified !== undefined) headers['Last-Modified'] = formatHttpDate(current.lastModified);
  return { status, headers };
}
