/**
 * The session a request names (`Mcp-Session-Id`): 400 without one, 404 for one that is unknown, over, or opened by
 * another caller (a session is its opener's alone; another learns nothing of it), 400 for a protocol version header
 * this server does not speak.
 */
import type { RequestContext } from '../pipeline/request-context';
import { settleToPromise } from '../pipeline/settle';
import type { StageResult } from '../pipeline/stage';
import { securityContext } from '../security/security-context';
import { SESSION_NOT_FOUND, TRANSPORT_ERROR } from './json-rpc';
import type { McpSession } from './mcp-session';
import { isSupportedVersion, PROTOCOL_VERSIONS } from './protocol-versions';
import type { Sessions } from './sessions';
import { PROTOCOL_HEADER, refuse, SESSION_HEADER } from './transport-answers';

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
  const version = ctx.headerValue(PROTOCOL_HEADER);
  if (version !== null && !isSupportedVersion(version))
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
