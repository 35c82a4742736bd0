// Conditional requests (RFC 9110 §13.2.2): evaluates If-Match, If-Unmodified-Since, If-None-Match
// and If-Modified-Since, in that order, against the current validators. Knows no resources.

import { parseEntityTagList, type EntityTag } from './entity-tag';
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
    if (!ifNoneMatchPasses(ifNoneMatch, current)) return failure(safe ? 304 : 412, current);
  } else if (safe && !modifiedSincePasses(headers.get('if-modified-since'), lastModified, now)) {
    return failure(304, current);
  }
  return undefined;
}

/** If-Match (§13.1.1): `*` needs a current representation; a list needs a strong match. */
function ifMatchPasses(header: string, current: CurrentRepresentation | undefined): boolean {
  const tags = parseEntityTagList(header);
  if (tags === '*') return current !== undefined;
  const etag = current?.etag;
  return etag !== undefined && tags.some((tag) => tag.strongEquals(etag));
}

/** If-None-Match (§13.1.2): false when `*` and a representation exists, or on a weak match. */
function ifNoneMatchPasses(header: string, current: CurrentRepresentation | undefined): boolean {
  const tags = parseEntityTagList(header);
  if (tags === '*') return current === undefined;
  const etag = current?.etag;
  return etag === undefined || !tags.some((tag) => tag.weakEquals(etag));
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

function failure(status: 304 | 412, current: CurrentRepresentation | undefined): PreconditionFailure {
  const headers: Record<string, string> = {};
  if (current?.etag !== undefined) headers.ETag = current.etag.toString();
  if (current?.lastModified !== undefined) headers['Last-Modified'] = formatHttpDate(current.lastModified);
  return { status, headers };
}
