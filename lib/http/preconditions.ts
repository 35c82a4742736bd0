// Conditional requests (RFC 9110 §13.2.2) and If-Range (§13.1.5) against the current validators. Knows no resources.

import { acceptsCoding } from './content-coding';
import { EntityTag, parseEntityTagList, VARIANT_CODINGS, variantTag } from './entity-tag';
import { formatHttpDate, parseHttpDate, truncateToSeconds } from './http-date';

/** `undefined` as a whole: there is no current representation. */
export interface CurrentRepresentation {
  readonly lastModified?: Date;
  readonly etag?: EntityTag;
}

export interface PreconditionFailure {
  readonly status: 304 | 412;
  /** `ETag` and `Last-Modified` of the current representation, when known. */
  readonly headers: Record<string, string>;
}

export interface ConditionalRequest {
  readonly method: string;
  readonly headers: Headers;
}

/**
 * The 304/412 answer, or undefined to proceed. An encoded variant's tag (`"v1-gzip"`) names `current.etag`'s state
 * too: If-Match takes it, and If-None-Match while `Accept-Encoding` takes that coding (the 304 then carries it).
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

/** If-None-Match (§13.1.2): the tag a weak match found (`true` for `*`); undefined when the method may proceed. */
function noneMatchHit(header: string, current: CurrentRepresentation | undefined, acceptEncoding: string | null) {
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

/** RFC 9110 §13.1.5; a variant's tag never matches: a range is never cut from encoded bytes. */
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

function failure(status: 304 | 412, current: CurrentRepresentation | undefined, matched?: EntityTag | true) {
  const headers: Record<string, string> = {};
  const etag = matched instanceof EntityTag ? matched : current?.etag;
  if (etag !== undefined) headers.ETag = etag.toString();
  if (current?.lastModified !== undefined) headers['Last-Modified'] = formatHttpDate(current.lastModified);
  return { status, headers };
}
