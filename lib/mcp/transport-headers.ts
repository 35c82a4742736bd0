/**
 * The header rules of the Streamable HTTP transport: what a POST and a GET must accept and send, and the session a
 * request names (`Mcp-Session-Id`): 400 without one, 404 for one that is unknown, over, or opened by another caller
 * (a session is its opener's alone; another learns nothing of it), 400 for a protocol version header this server
 * does not speak.
 */
import { parseAccept, type AcceptRange } from '../http/accept';
import { mediaType, parseMediaType, type MediaType } from '../http/media-type';
import { bestRange } from '../http/negotiate';
import type { RequestContext } from '../context/request-context';
import { settleToPromise } from '../context/settle';
import type { StageResult } from '../context/stage';
import { securityContext } from '../security/security-context';
import { SESSION_NOT_FOUND, TRANSPORT_ERROR } from './json-rpc';
import type { McpSession } from './mcp-session';
import type { Sessions } from './sessions';
import { refuse, SESSION_HEADER } from './transport-answers';

/** The MCP protocol versions this server speaks, newest first: `initialize` answers with the client's version when it
 * is one of these, else with the first. */
const PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];

/** The version a session speaks: the client's own when supported (it then need not disconnect), else the latest. */
export function negotiateVersion(requested: unknown): string {
  return typeof requested === 'string' && PROTOCOL_VERSIONS.includes(requested) ? requested : PROTOCOL_VERSIONS[0]!;
}

/**
 * Whether a client of `version` reads an SSE event with an id and empty data (a "priming" event that gives it a
 * `Last-Event-ID` before any message): from 2025-11-25; older clients may take the empty data for a broken message.
 */
export function readsPrimingEvents(version: string): boolean {
  return version >= '2025-11-25';
}

const EVENT_STREAM = mediaType('text', 'event-stream');
const JSON_TYPE = mediaType('application', 'json');

/** Whether `type` is acceptable: a range matches it, and its weight is not 0 (which vetoes). */
function acceptable(ranges: readonly AcceptRange[], type: MediaType): boolean {
  return (bestRange(ranges, type)?.q ?? 0) > 0;
}

/**
 * Whether the client of a POST would rather have SSE than JSON, for requests the server could answer either way: a
 * higher weight, or, at equal weights, listed first (`text/event-stream, application/json`).
 */
export function prefersStream(ctx: RequestContext): boolean {
  const ranges = parseAccept(ctx.headerValue('accept'));
  const stream = bestRange(ranges, EVENT_STREAM);
  const json = bestRange(ranges, JSON_TYPE);
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
  if (!acceptable(ranges, JSON_TYPE) || !acceptable(ranges, EVENT_STREAM))
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
  if (accept !== null && acceptable(parseAccept(accept), EVENT_STREAM)) return undefined;
  return refuse(ctx, 406, TRANSPORT_ERROR, 'Not Acceptable: Client must accept text/event-stream');
}

/** The caller's name, as a session remembers its opener. */
export function principalOf(ctx: RequestContext): string | undefined {
  return securityContext(ctx).userPrincipal?.name;
}

/** Calls `next` with the request's session, or answers the refusal. */
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
    if (!session || session.principal !== principalOf(ctx))
      return refuse(ctx, 404, SESSION_NOT_FOUND, 'Session not found');
    session.touch();
    return next(session);
  };
  return found instanceof Promise ? found.then((session) => settleToPromise(go(session))) : go(found);
}
