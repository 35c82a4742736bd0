/** The header rules of the Streamable HTTP transport: what a POST and a GET must accept and send. */
import { parseAccept, type AcceptRange } from '../http/accept';
import { parseMediaType } from '../http/media-type';
import type { RequestContext } from '../pipeline/request-context';
import { TRANSPORT_ERROR } from './json-rpc';
import { refuse } from './transport-answers';

/** The most specific range of `ranges` matching `type/subtype` (RFC 9110 §12.5.1), which gives it its weight. */
function rangeFor(ranges: readonly AcceptRange[], type: string, subtype: string): AcceptRange | undefined {
  let best: AcceptRange | undefined;
  let rank = -1;
  for (const range of ranges) {
    const matches = range.type === '*' || (range.type === type && (range.subtype === '*' || range.subtype === subtype));
    if (!matches) continue;
    const specific = range.type === '*' ? 0 : range.subtype === '*' ? 1 : 2;
    if (specific > rank) {
      best = range;
      rank = specific;
    }
  }
  return best;
}

/** Whether `type/subtype` is acceptable: a range matches it, and its weight is not 0 (which vetoes). */
function acceptable(ranges: readonly AcceptRange[], type: string, subtype: string): boolean {
  return (rangeFor(ranges, type, subtype)?.q ?? 0) > 0;
}

/**
 * Whether the client of a POST would rather have SSE than JSON, for requests the server could answer either way: a
 * higher weight, or, at equal weights, listed first (`text/event-stream, application/json`).
 */
export function prefersStream(ctx: RequestContext): boolean {
  const ranges = parseAccept(ctx.headerValue('accept'));
  const stream = rangeFor(ranges, 'text', 'event-stream');
  const json = rangeFor(ranges, 'application', 'json');
  if (!stream || !json || stream.q !== json.q) return (stream?.q ?? 0) > (json?.q ?? 0);
  return ranges.indexOf(stream) < ranges.indexOf(json);
}

/**
 * A POST that cannot take both answers the server may give (JSON and SSE) is refused with 406, one whose body is not
 * JSON with 415; `undefined` when it may go on.
 */
export function refusePostHeaders(ctx: RequestContext): RequestContext | undefined {
  const accept = ctx.headerValue('accept');
  const ranges = accept === null ? [] : parseAccept(accept);
  if (!acceptable(ranges, 'application', 'json') || !acceptable(ranges, 'text', 'event-stream'))
    return refuse(
      ctx,
      406,
      TRANSPORT_ERROR,
      'Not Acceptable: Client must accept both application/json and text/event-stream',
    );
  const type = parseMediaType(ctx.headerValue('content-type') ?? '');
  if (type?.type !== 'application' || type.subtype !== 'json')
    return refuse(ctx, 415, TRANSPORT_ERROR, 'Unsupported Media Type: Content-Type must be application/json');
  return undefined;
}

/** A GET must accept SSE (406 otherwise); `undefined` when it may go on. */
export function refuseGetHeaders(ctx: RequestContext): RequestContext | undefined {
  const accept = ctx.headerValue('accept');
  if (accept !== null && acceptable(parseAccept(accept), 'text', 'event-stream')) return undefined;
  return refuse(ctx, 406, TRANSPORT_ERROR, 'Not Acceptable: Client must accept text/event-stream');
}
