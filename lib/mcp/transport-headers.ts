/** The Streamable HTTP transport's header rules: what a POST and a GET accept and send, and the session named. */
import { parseAccept } from '../http/accept';
import { mediaType, parseMediaType, type MediaType } from '../http/media-type';
import { bestRange } from '../http/negotiate';
import type { RequestContext } from '../context/request-context';
import { settleToPromise } from '../context/settle';
import type { StageResult } from '../context/stage';
import { principalName } from '../security/security-context';
import { SESSION_NOT_FOUND, TRANSPORT_ERROR } from './json-rpc';
import type { McpSession } from './mcp-session';
import type { Sessions } from './sessions';
import { refuse, SESSION_HEADER } from './transport-answers';

/** Newest first. */
const PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];

/** The client's own when supported (it then need not disconnect), else the latest. */
export function negotiateVersion(requested: unknown): string {
  return typeof requested === 'string' && PROTOCOL_VERSIONS.includes(requested) ? requested : PROTOCOL_VERSIONS[0]!;
}

/** A priming event (an id, empty data) from 2025-11-25: older clients may take it for a broken message. */
export function readsPrimingEvents(version: string): boolean {
  return version >= '2025-11-25';
}

const EVENT_STREAM = mediaType('text', 'event-stream');
const JSON_TYPE = mediaType('application', 'json');

/** An absent Accept takes neither: the transport asks a client to name what it takes. */
function accepts(ctx: RequestContext, ...types: MediaType[]): boolean {
  const accept = ctx.headerValue('accept');
  const ranges = accept === null ? [] : parseAccept(accept);
  return types.every((type) => (bestRange(ranges, type)?.q ?? 0) > 0);
}

/** A higher weight for SSE than JSON, or, at equal weights, listed first. */
export function prefersStream(ctx: RequestContext): boolean {
  const ranges = parseAccept(ctx.headerValue('accept'));
  const stream = bestRange(ranges, EVENT_STREAM);
  const json = bestRange(ranges, JSON_TYPE);
  if (!stream || !json || stream.q !== json.q) return (stream?.q ?? 0) > (json?.q ?? 0);
  return ranges.indexOf(stream) < ranges.indexOf(json);
}

/** A POST must take both answers the server may give (406), and send JSON (415). */
export function refusePostHeaders(ctx: RequestContext): RequestContext | undefined {
  if (!accepts(ctx, JSON_TYPE, EVENT_STREAM))
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

export function refuseGetHeaders(ctx: RequestContext): RequestContext | undefined {
  if (accepts(ctx, EVENT_STREAM)) return undefined;
  return refuse(ctx, 406, TRANSPORT_ERROR, 'Not Acceptable: Client must accept text/event-stream');
}

/** A session is its opener's alone: another caller gets 404, and learns nothing of it. */
export function withSession(
  ctx: RequestContext,
  sessions: Sessions,
  next: (session: McpSession) => StageResult<RequestContext>,
): StageResult<RequestContext> {
  const id = ctx.headerValue(SESSION_HEADER);
  if (!id) return refuse(ctx, 400, TRANSPORT_ERROR, 'Bad Request: Mcp-Session-Id header is required');
  const version = ctx.headerValue('mcp-protocol-version');
  if (version !== null && !PROTOCOL_VERSIONS.includes(version))
    return refuse(
      ctx,
      400,
      TRANSPORT_ERROR,
      `Bad Request: Unsupported protocol version: ${version} (supported versions: ${PROTOCOL_VERSIONS.join(', ')})`,
    );
  const found = sessions.find(id);
  const go = (session: McpSession | undefined): StageResult<RequestContext> => {
    if (!session || session.principal !== principalName(ctx))
      return refuse(ctx, 404, SESSION_NOT_FOUND, 'Session not found');
    session.touch();
    return next(session);
  };
  return found instanceof Promise ? found.then((session) => settleToPromise(go(session))) : go(found);
}
